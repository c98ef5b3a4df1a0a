package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 4c: a worker stops dead between a digest's send and its flush (the node halts, as {@code
 * kill -9} would stop it, right after its transport accepted its first digest email and before the
 * day buckets are marked). The send ledger kept the digest's note with the email's handover; the worker
 * that takes the partition over settles the recipient as unknown and marks the digest told from the
 * note. The next digest campaign then tells only what is new: each notification is told exactly once
 * across every digest email of both runs, the halted worker's outbox included.
 */
@Timeout(240)
class DigestFlushInterruptedFaultIT {
  private static final int SUBSCRIBERS = 30;

  @Test
  void a_worker_killed_between_a_digests_send_and_its_flush_leaves_it_told_once() throws Exception {
    try (var nodes = CampaignNodes.create(
        "flush", Map.of("TIDINGS_SEND_PARTITION_SIZE", "50", "TIDINGS_SEND_LEASE_TTL", "PT3S"))) {
      nodes.startServer();
      var halting = nodes.awaitHealthy(
          nodes.startWorker(List.of("-Dtidings.test.halt-before-digest-flush=true")));
      List<String> subscribers = new ArrayList<>();
      for (String address : nodes.importSubscribers(SUBSCRIBERS)) {
        String id = address.substring(0, address.indexOf('@'));
        subscribers.add(id);
        nodes.follow(id, "velin");
      }
      var pieces = new ArrayList<String>();
      for (int p = 1; p <= 5; p++) pieces.add("first" + p);
      for (String piece : pieces) nodes.product(piece, "velin");
      awaitNotifications(nodes, SUBSCRIBERS * pieces.size());

      long first = nodes.sendDigest("Digest before the halt");
      var exit = halting.awaitExit(Duration.ofSeconds(60));
      long haltedAt = System.nanoTime();
      assertThat(exit)
          .as("the worker halted after its first digest's send; log:%n%s", halting.log())
          .hasValue(137);
      Set<String> held = nodes.recipientsIn(first, "sending", "handed_over");
      var taker = nodes.awaitHealthy(nodes.startWorker(List.of()));
      Duration recovery = nodes.awaitSettled(first, held, haltedAt, Duration.ofSeconds(90));
      JsonNode firstProgress = nodes.awaitCompleted(first, Duration.ofSeconds(60));
      long unknown = firstProgress.path("unknown").asLong();
      assertThat(unknown)
          .as("the halted digest's recipient is unknown: %s", firstProgress)
          .isPositive();

      for (int p = 1; p <= 3; p++) pieces.add("second" + p);
      for (String piece : pieces.subList(5, 8)) nodes.product(piece, "velin");
      awaitNotifications(nodes, SUBSCRIBERS * pieces.size());
      long second = nodes.sendDigest("Digest after the halt");
      nodes.awaitCompleted(second, Duration.ofSeconds(60));

      var told = new ArrayList<String>();
      for (CampaignNodes.Email email : nodes.outboxes()) {
        String subscriber = email.to().substring(0, email.to().indexOf('@'));
        for (String piece : email.told()) told.add(subscriber + ":" + piece);
      }
      var produced = new ArrayList<String>();
      for (String subscriber : subscribers)
        for (String piece : pieces) produced.add(subscriber + ":" + piece);
      Tally all = Tally.of(produced, told);
      // A digest whose recipient is unknown may never have left (the worker halted between its
      // handover and the write): it is marked told once and never sent again, as the ledger does
      // with the email itself. Its pieces are reported with the unknown recipient, not lost.
      Set<String> unknownRecipients = nodes.recipientsIn(first, "unknown");
      var toldOnce = new HashSet<>(told);
      long untoldOfUnknown = produced.stream()
          .filter(piece -> !toldOnce.contains(piece))
          .filter(piece -> unknownRecipients.contains(piece.substring(0, piece.indexOf(':'))))
          .count();
      Tally tally = new Tally(
          all.acknowledged(), all.stored(), all.lost() - untoldOfUnknown, all.duplicated());
      double recovered = nodes.metric(taker, "tidings_notify_digests_recovered_total");
      FaultReport.recordAndCheck(FaultReport.Outcome.of(
          "4c worker killed between a digest's send and its flush",
          "shared PostgreSQL, Redis, RabbitMQ; server + worker halted after its first digest's"
              + " handover, then a second worker",
          tally,
          unknown,
          recovery,
          "notifications (subscriber, piece) produced vs told across both digest runs' emails;"
              + " digests marked told from their handover note by the taking-over worker: %.0f"
                  .formatted(recovered)
              + "; pieces of unknown recipients' digests not told: %d".formatted(untoldOfUnknown)
              + "; recovery = halt -> the halted worker's claimed recipients settled by the second"
              + " worker's takeover (that worker's start included); lease TTL 3 s"));
      assertThat(recovered).as("the takeover marked the halted digests told").isPositive();
    }
  }

  /** Waits for the fan-out of the products to the followers' day buckets. */
  static void awaitNotifications(CampaignNodes nodes, long expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    long seen;
    while ((seen =
            nodes.count("SELECT coalesce(sum(cardinality(events)), 0) FROM notification_buckets"))
        < expected) {
      assertThat(System.nanoTime())
          .as("%d notifications of %d fanned out", seen, expected)
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
