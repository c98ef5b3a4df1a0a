package dev.tidings.cli;

import dev.tidings.Json;
import dev.tidings.app.CampaignWiring;
import dev.tidings.app.Node;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.send.SendProgress;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The demo's campaign: on the first start of a data directory, one email with six open-time slots to
 * every generated subscriber, sent through the whole pipeline to the outbox while the API is already
 * up. A later start finds the campaign and leaves it alone.
 */
final class DemoCampaign {
  private static final String DEFINITION = "/demo/campaign.json";
  private static final long POLL_MILLIS = 250;

  private DemoCampaign() {}

  /** {@code afterSent} runs once the run finished, on the progress thread. */
  static void sendOnFirstStart(Node node, Runnable afterSent) {
    CampaignService campaigns = node.capability(CampaignWiring.class).campaigns();
    if (!campaigns.list(Optional.empty(), 1).isEmpty()) return;
    Campaign campaign = campaigns.create(CampaignJson.fromJson(Json.MAPPER.readTree(definition())));
    SendProgress started = campaigns.send(campaign.id());
    System.out.printf(
        "demo campaign %d: sending %,d emails to %s%n",
        campaign.id(), started.planned(), node.settings().dataDir().resolve("outbox"));
    Thread.ofVirtual().name("demo campaign progress").start(() -> {
      if (follow(campaigns, campaign.id())) afterSent.run();
    });
  }

  /** Shows the run's progress until it finished; false when it could not follow it to the end. */
  private static boolean follow(CampaignService campaigns, long id) {
    try (var bar = Progress.of("demo campaign", -1, " emails")) {
      while (true) {
        Optional<SendProgress> progress = campaigns.view(id).flatMap(view -> view.progress());
        if (progress.isPresent()) {
          bar.stepTo(progress.get().done());
          if (progress.get().state().finished()) {
            System.out.printf(
                "%ndemo campaign %d %s: %,d sent, %,d failed, %,d skipped%n",
                id,
                progress.get().state().name().toLowerCase(java.util.Locale.ROOT),
                progress.get().sent(),
                progress.get().failed(),
                progress.get().skipped());
            return true;
          }
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException stopped) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // the node is stopping, or its database went away: the demo goes on without the bar
      System.err.println("demo campaign progress stopped: " + e.getMessage());
    }
    return false;
  }

  private static byte[] definition() {
    try (InputStream in = DemoCampaign.class.getResourceAsStream(DEFINITION)) {
      if (in == null) throw new IllegalStateException(DEFINITION + " is missing from the jar");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
