package dev.tidings.web.dashboard;

import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.CampaignService;
import dev.tidings.journeys.CampaignDrafts;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyStore;
import java.time.InstantSource;

/**
 * What the journeys' pages use, handed over by the wiring: the journeys capability's own store,
 * figures and template drafts (the same the API calls; never its tables), on the primary database,
 * since a page after an edit or a state change must show it.
 *
 * @param changed tells this node's journey runtime that a journey changed state or version
 * @param campaigns the campaigns a send step may choose, and whether the chosen one still exists
 * @param subscribers whom a step's email is previewed as
 */
public record JourneyPagesSources(
    JourneyStore store,
    JourneyFigures figures,
    CampaignDrafts drafts,
    Runnable changed,
    CampaignService campaigns,
    SubscriberService subscribers,
    InstantSource clock) {}
