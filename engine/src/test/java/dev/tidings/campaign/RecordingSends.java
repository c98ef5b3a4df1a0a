package dev.tidings.campaign;

import dev.tidings.campaign.send.PlannedSend;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.campaign.send.SendReceipt;
import dev.tidings.campaign.send.SendState;
import dev.tidings.campaign.send.Sends;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for the send pipeline's port that records what the campaign capability asks of it and
 * keeps each run's state as the pipeline would report it; {@link #finish} plays a run to its end.
 */
public final class RecordingSends implements Sends {
  public record Started(SendJob job, List<String> recipients) {}

  public record Triggered(SendJob job, String subscriberId) {}

  public final List<Started> started = new CopyOnWriteArrayList<>();
  public final List<Triggered> triggered = new CopyOnWriteArrayList<>();
  public final List<String> calls = new CopyOnWriteArrayList<>();
  public final List<SendReceipt> reported = new CopyOnWriteArrayList<>();
  private final Map<Long, SendProgress> runs = new ConcurrentHashMap<>();
  /** When set, the next start fails with it (a pipeline that is down), then it is cleared. */
  public volatile RuntimeException failNextStart;

  @Override
  public SendProgress start(SendJob job, Iterator<String> recipients) {
    RuntimeException failure = failNextStart;
    if (failure != null) {
      failNextStart = null;
      throw failure;
    }
    List<String> all = new ArrayList<>();
    recipients.forEachRemaining(all::add);
    started.add(new Started(job, List.copyOf(all)));
    calls.add("start " + job.campaignId() + "/" + job.runId());
    return runs.computeIfAbsent(
        job.runId(),
        run -> new SendProgress(
            job, SendState.RUNNING, all.size(), 0, 0, 0, 0, Instant.now(), Optional.empty(), 0));
  }

  /** Every planned recipient of every start with a send-time plan, in order. */
  public final List<PlannedSend> planned = new CopyOnWriteArrayList<>();

  @Override
  public SendProgress startPlanned(SendJob job, Iterator<PlannedSend> recipients) {
    List<String> ids = new ArrayList<>();
    recipients.forEachRemaining(recipient -> {
      planned.add(recipient);
      ids.add(recipient.subscriberId());
    });
    return start(job, ids.iterator());
  }

  @Override
  public void trigger(SendJob job, String subscriberId) {
    triggered.add(new Triggered(job, subscriberId));
  }

  @Override
  public Optional<SendProgress> progress(long campaignId, long runId) {
    return Optional.ofNullable(runs.get(runId));
  }

  @Override
  public void pause(long campaignId, long runId) {
    calls.add("pause " + campaignId + "/" + runId);
    move(runId, SendState.PAUSED);
  }

  @Override
  public void resume(long campaignId, long runId) {
    calls.add("resume " + campaignId + "/" + runId);
    move(runId, SendState.RUNNING);
  }

  @Override
  public void report(SendReceipt receipt) {
    reported.add(receipt);
  }

  @Override
  public void cancel(long campaignId, long runId) {
    calls.add("cancel " + campaignId + "/" + runId);
    move(runId, SendState.CANCELLED);
  }

  /** Every planned recipient sent: the run completes. */
  public void finish(long runId) {
    runs.computeIfPresent(
        runId,
        (run, p) -> new SendProgress(
            p.job(),
            SendState.COMPLETED,
            p.planned(),
            p.planned(),
            0,
            0,
            0,
            p.startedAt(),
            Optional.of(Instant.now()),
            0));
  }

  private void move(long runId, SendState state) {
    runs.computeIfPresent(
        runId,
        (run, p) -> new SendProgress(
            p.job(),
            state,
            p.planned(),
            p.sent(),
            p.failed(),
            p.unknown(),
            p.skipped(),
            p.startedAt(),
            p.finishedAt(),
            p.recentPerSecond()));
  }
}
