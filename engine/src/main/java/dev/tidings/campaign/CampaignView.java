package dev.tidings.campaign;

import dev.tidings.campaign.send.SendProgress;
import java.util.Optional;

/**
 * A campaign as the API and CLI show it: the stored campaign, the state that counts (the run's, once
 * there is a run the send pipeline knows) and the run's numbers.
 */
public record CampaignView(
    Campaign campaign, CampaignState state, Optional<SendProgress> progress) {}
