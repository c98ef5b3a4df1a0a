package dev.tidings.web.dashboard;

import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignService;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * What the campaign editor uses, handed over by the wiring: the campaign capability's own services (the
 * same the API calls), on the primary database, since the editor writes.
 */
public record CampaignEditorSources(
    CampaignService campaigns,
    CampaignEmails emails,
    SubscriberService subscribers,
    AudienceCounter counter,
    Starters templates,
    Blocks blocks,
    Previews previews,
    TestSender tests,
    InstantSource clock) {

  /** One subscriber's email of a campaign, as it would be sent now. */
  public record Previewed(
      Optional<dev.tidings.mail.OutgoingEmail> email,
      boolean wouldSend,
      Optional<String> reason,
      List<dev.tidings.campaign.editor.SlotProduct> slots) {}

  /** Renders a campaign for one subscriber without sending or recording anything. */
  @FunctionalInterface
  public interface Previews {
    /** Empty when there is no such subscriber. */
    Optional<Previewed> preview(dev.tidings.campaign.Campaign campaign, String subscriberId);
  }

  /** Mails one test of a campaign to an address someone typed. */
  @FunctionalInterface
  public interface TestSender {
    /** @throws dev.tidings.InvalidInputException when the address is not one */
    dev.tidings.campaign.editor.TestSendResult send(
        long campaignId, String to, Optional<String> subscriberId);
  }

  /** How many subscribers an audience (the API's JSON of one) holds now. */
  @FunctionalInterface
  public interface AudienceCounter {
    /** @throws dev.tidings.InvalidInputException naming what is wrong with the conditions */
    long count(tools.jackson.databind.JsonNode audience);
  }

  /** A campaign to start from: the parts of a definition a template gives. */
  public record Starter(
      String name,
      String title,
      String description,
      String subject,
      String html,
      String text,
      int slots,
      boolean digest) {}

  /** The template library. */
  public interface Starters {
    List<Starter> list();

    Optional<Starter> starter(String name);
  }

  /** What a block adds: to the HTML, to the text, and the slots or digest it needs. */
  public record Snippet(String html, String text, Optional<Integer> slots, boolean digest) {}

  /** One kind of block the editor offers. */
  public record BlockKind(String value, String label) {}

  /** The blocks people would otherwise write by hand. */
  public interface Blocks {
    List<BlockKind> kinds();

    /**
     * The block of this kind with the form's parameters.
     *
     * @throws dev.tidings.InvalidInputException naming the parameter that is wrong
     */
    Snippet make(String kind, String count, String label, String url);
  }
}
