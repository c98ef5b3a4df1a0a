package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.CampaignWiring;
import dev.tidings.app.Node;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.cli.Progress;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
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

  /**
   * {@code afterSent} runs once the run finished, on the progress thread; then the demo's digest of new
   * products is sent ({@link DemoDigest}).
   */
  static void sendOnFirstStart(Node node, Runnable afterSent) {
    CampaignService campaigns = node.capability(CampaignWiring.class).campaigns();
    if (!campaigns.list(Optional.empty(), 1).isEmpty()) return;
    long id = send(node, "demo campaign", DEFINITION);
    Thread.ofVirtual().name("demo campaign progress").start(() -> {
      if (!follow(campaigns, id, "demo campaign")) return;
      afterSent.run();
      DemoDigest.publishAndSend(node);
    });
  }

  /** Creates and sends the campaign defined in the resource; returns its id. */
  static long send(Node node, String label, String resource) {
    CampaignService campaigns = node.capability(CampaignWiring.class).campaigns();
    Campaign campaign =
        campaigns.create(CampaignJson.fromJson(Json.MAPPER.readTree(definition(resource))));
    SendProgress started = campaigns.send(campaign.id());
    System.out.printf(
        "%s %d: sending %,d emails to %s%n",
        label, campaign.id(), started.planned(), node.settings().dataDir().resolve("outbox"));
    return campaign.id();
  }

  /** Shows the run's progress until it finished; false when it could not follow it to the end. */
  static boolean follow(CampaignService campaigns, long id, String label) {
    try (var bar = Progress.of(label, -1, " emails")) {
      while (true) {
        Optional<SendProgress> progress = campaigns.view(id).flatMap(view -> view.progress());
        if (progress.isPresent()) {
          bar.stepTo(progress.get().done());
          if (progress.get().state().finished()) {
            System.out.printf(
                "%n%s %d %s: %,d sent, %,d failed, %,d skipped%n",
                label,
                id,
                progress.get().state().name().toLowerCase(Locale.ROOT),
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
      System.err.println(label + " progress stopped: " + e.getMessage());
    }
    return false;
  }

  private static byte[] definition(String resource) {
    try (InputStream in = DemoCampaign.class.getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException(resource + " is missing from the jar");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
