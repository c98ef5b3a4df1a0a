package dev.tidings.web.dashboard;

import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.editor.CampaignPreviews;
import dev.tidings.campaign.editor.CampaignTemplateLibrary;
import dev.tidings.campaign.editor.TestSends;
import java.time.InstantSource;

/**
 * What the campaign editor uses, handed over by the wiring: the campaign capability's own services
 * (the same the API calls), on the primary database, since the editor writes and a person who saves a
 * draft must see it on the next page.
 */
public record CampaignEditorSources(
    CampaignService campaigns,
    SubscriberService subscribers,
    CampaignTemplateLibrary templates,
    CampaignPreviews previews,
    TestSends tests,
    InstantSource clock) {}
