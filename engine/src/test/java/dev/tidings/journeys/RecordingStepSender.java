package dev.tidings.journeys;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A step sender that keeps what it was asked to send, once per (campaign, run, person) as the ledger
 * does: runs are numbered per key, the campaigns it knows are the ones given.
 */
public final class RecordingStepSender implements StepSender {
  /** One email asked for. */
  public record Sent(long campaignId, long runId, String subscriberId) {}

  private final Set<Long> campaigns;
  private final Map<String, Long> runs = new HashMap<>();
  private final AtomicLong nextRun = new AtomicLong(1);
  private final List<Sent> sent = new ArrayList<>();
  private final Set<Sent> once = new HashSet<>();
  private int asked;

  public RecordingStepSender(Set<Long> campaigns) {
    this.campaigns = Set.copyOf(campaigns);
  }

  @Override
  public synchronized Optional<Long> runFor(long campaignId, String key) {
    if (!campaigns.contains(campaignId)) return Optional.empty();
    return Optional.of(
        runs.computeIfAbsent(campaignId + "/" + key, k -> nextRun.getAndIncrement()));
  }

  @Override
  public synchronized void send(long campaignId, long runId, String subscriberId) {
    asked++;
    var email = new Sent(campaignId, runId, subscriberId);
    if (once.add(email)) sent.add(email);
  }

  @Override
  public synchronized Optional<Outcomes> outcomes(long campaignId, long runId) {
    long count = sent.stream()
        .filter(s -> s.campaignId() == campaignId && s.runId() == runId)
        .count();
    return count == 0 ? Optional.empty() : Optional.of(new Outcomes(count, count, 0, 0, 0));
  }

  /** The emails sent, each once, in the order they were first asked for. */
  public synchronized List<Sent> sent() {
    return List.copyOf(sent);
  }

  /** How often a send was asked for, repeats included. */
  public synchronized int asked() {
    return asked;
  }
}
