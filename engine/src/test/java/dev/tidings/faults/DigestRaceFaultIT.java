package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scenario 6: digests read and flushed while new content keeps fanning out to the same subscribers'
 * day buckets (products of a followed brand added through the API all along). A notification that
 * arrives after a digest was read must stay for the next one, and none may be told twice: each
 * (subscriber, piece) appears in exactly one digest email across the successive digests and a final
 * one sent once the fan-out stopped.
 */
@Timeout(240)
class DigestRaceFaultIT {
  private static final int SUBSCRIBERS = 20;
  private static final int DIGESTS_WHILE_FANNING_OUT = 3;

  @Test
  void digests_racing_with_the_fan_out_tell_each_notification_exactly_once() throws Exception {
    try (var nodes = CampaignNodes.create("race", Map.of("TIDINGS_SEND_PARTITION_SIZE", "10"))) {
      nodes.startServer();
      nodes.awaitHealthy(nodes.startWorker(List.of()));
      List<String> subscribers = new ArrayList<>();
      for (String address : nodes.importSubscribers(SUBSCRIBERS)) {
        String id = address.substring(0, address.indexOf('@'));
        subscribers.add(id);
        nodes.follow(id, "velin");
      }

      var pieces = new CopyOnWriteArrayList<String>();
      var fanningOut = new AtomicBoolean(true);
      var failure = new AtomicReference<Throwable>();
      Thread fanOut = Thread.ofVirtual().start(() -> {
        try {
          for (int n = 0; fanningOut.get(); n++) {
            String piece = "race" + n;
            nodes.product(piece, "velin");
            pieces.add(piece);
            Thread.sleep(150);
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      long started = System.nanoTime();
      var digests = new ArrayList<Long>();
      try {
        for (int d = 0; d < DIGESTS_WHILE_FANNING_OUT; d++) {
          Thread.sleep(1_500);
          long digest = nodes.sendDigest("Racing digest " + d);
          digests.add(digest);
          nodes.awaitCompleted(digest, Duration.ofSeconds(60));
        }
      } finally {
        fanningOut.set(false);
        fanOut.join();
      }
      assertThat(failure.get()).as("the fan-out's API calls").isNull();
      DigestFlushInterruptedFaultIT.awaitNotifications(nodes, (long) SUBSCRIBERS * pieces.size());
      long last = nodes.sendDigest("Final digest");
      digests.add(last);
      nodes.awaitCompleted(last, Duration.ofSeconds(60));
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      var told = new ArrayList<String>();
      var emails = nodes.outboxes();
      for (CampaignNodes.Email email : emails) {
        String subscriber = email.to().substring(0, email.to().indexOf('@'));
        for (String piece : email.told()) told.add(subscriber + ":" + piece);
      }
      var produced = new ArrayList<String>();
      for (String subscriber : subscribers)
        for (String piece : pieces) produced.add(subscriber + ":" + piece);
      Tally tally = Tally.of(produced, told);
      FaultReport.recordAndCheck(FaultReport.Outcome.of(
          "6 digests racing with the fan-out of new content",
          "shared PostgreSQL, Redis, RabbitMQ; server + worker",
          tally,
          0,
          Duration.ZERO,
          "%d products fanned out to %d followers over %.0f s while %d digests ran, then a final"
                  .formatted(
                      pieces.size(),
                      SUBSCRIBERS,
                      took.toMillis() / 1000.0,
                      DIGESTS_WHILE_FANNING_OUT)
              + " one; " + emails.size() + " digest emails; no fault injected, so no recovery"));
      assertThat(emails.size())
          .as("the racing digests told something each")
          .isGreaterThan(SUBSCRIBERS * DIGESTS_WHILE_FANNING_OUT);
    }
  }
}
