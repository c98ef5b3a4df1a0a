package dev.tidings.bench;

import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendOptions;
import dev.tidings.campaign.send.SendPipeline;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.coordination.Coordination;
import dev.tidings.events.EventOutbox;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.SendResult;
import dev.tidings.message.MessageId;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * {@code tidings bench send}: a whole run through the send pipeline (plan into the ledger, queue the
 * partitions, workers claim, render, send over SMTP, mark) to a server that discards what it gets,
 * timed from the start of planning to the run's completion, with the render time per email and the
 * peak heap of this process (planner, workers and SMTP server together).
 */
public final class SendBench {
  private SendBench() {}

  public record Options(int subscribers, int slots, int senders, int chunk, int partitionSize) {
    public Options withSubscribers(int fewer) {
      return new Options(fewer, slots, senders, chunk, partitionSize);
    }
  }

  public record Result(
      String backend,
      long emails,
      double planSeconds,
      double totalSeconds,
      double renderMicros,
      long peakHeapBytes,
      long smtpConnections) {
    public double perSecond() {
      return emails / totalSeconds;
    }
  }

  /** The node's pieces the run uses; the caller owns and closes them. */
  public record Backend(
      String name, Jdbi jdbi, WorkQueue queue, Coordination coordination, MailTransport mail) {
    public Backend named(String other) {
      return new Backend(other, jdbi, queue, coordination, mail);
    }
  }

  /**
   * The run with a run's hand-over and completion told to {@code outbox}; the relay and listeners,
   * when on, are the caller's to run beside it.
   */
  public static Result run(
      Backend backend, Options options, EventOutbox outbox, DiscardSmtpServer smtp, PrintStream out)
      throws InterruptedException {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    var sendOptions = SendOptions.defaults()
        .withPartitionSize(options.partitionSize())
        .withWorkers(options.slots(), options.senders(), options.chunk())
        .withQueues("bench-send-" + suffix, "bench-outcome-" + suffix);
    var composer = new TimedComposer(new SyntheticComposer());
    List<Subscription> subscriptions = new ArrayList<>();
    long connectionsBefore = smtp.connections();
    var metrics = new SimpleMeterRegistry();
    try (var pipeline = new SendPipeline(
        backend.jdbi(),
        backend.queue(),
        backend.coordination(),
        sendOptions,
        outbox,
        InstantSource.system(),
        metrics)) {
      resetPeaks();
      var job = new SendJob(System.currentTimeMillis(), 1, 3, 1_000_000);
      long began = System.nanoTime();
      pipeline.sends().start(job, ids(options.subscribers()));
      double planSeconds = (System.nanoTime() - began) / 1e9;
      out.printf(
          "  %s: planned %,d recipients in %.2f s%n",
          backend.name(), options.subscribers(), planSeconds);
      pipeline
          .consumers(composer, backend.mail())
          .register(new Subscribing(backend.queue(), subscriptions));
      SendProgress progress;
      long lastPrint = System.nanoTime();
      while (true) {
        progress = pipeline.sends().progress(job.campaignId(), job.runId()).orElseThrow();
        if (progress.state().finished()) break;
        if (System.nanoTime() - lastPrint > 5_000_000_000L) {
          out.printf("    %,d of %,d sent%n", progress.sent(), progress.planned());
          lastPrint = System.nanoTime();
        }
        Thread.sleep(50);
      }
      double totalSeconds = (System.nanoTime() - began) / 1e9;
      subscriptions.forEach(Subscription::close);
      subscriptions.clear();
      backend.queue().delete(sendOptions.queueName());
      backend.queue().delete(sendOptions.receiptQueueName());
      printHandovers(backend.name(), metrics, out);
      if (progress.sent() != progress.planned())
        out.printf(
            "    NOTE: %s ended %s with %d sent of %d%n",
            backend.name(), progress.state(), progress.sent(), progress.planned());
      return new Result(
          backend.name(),
          progress.sent(),
          planSeconds,
          totalSeconds,
          composer.micros(),
          peakHeap(),
          smtp.connections() - connectionsBefore);
    } finally {
      subscriptions.forEach(Subscription::close);
    }
  }

  /**
   * The baseline without the pipeline: the same emails written and handed to the same transport by
   * as many threads, with no ledger, queue, lease or countdown, so nothing survives a crash. What the
   * pipeline's guarantees cost is the difference.
   */
  public static Result direct(MailTransport mail, Options options, DiscardSmtpServer smtp)
      throws InterruptedException {
    var composer = new TimedComposer(new SyntheticComposer());
    var job = new SendJob(1, 1, 3, 1_000_000);
    var next = new AtomicLong();
    var sent = new AtomicLong();
    long connectionsBefore = smtp.connections();
    resetPeaks();
    long began = System.nanoTime();
    var threads = new ArrayList<Thread>();
    for (int t = 0; t < options.slots() * options.senders(); t++) {
      threads.add(Thread.ofVirtual().start(() -> {
        long i;
        while ((i = next.getAndIncrement()) < options.subscribers()) {
          var composed = composer.compose(job, new MessageId(1, 1, "s" + i));
          if (composed instanceof Composer.Composed.Email email
              && mail.send(email.email()) instanceof SendResult.Accepted) sent.incrementAndGet();
        }
      }));
    }
    for (Thread thread : threads) thread.join();
    double seconds = (System.nanoTime() - began) / 1e9;
    return new Result(
        "direct, no pipeline",
        sent.get(),
        0,
        seconds,
        composer.micros(),
        peakHeap(),
        smtp.connections() - connectionsBefore);
  }

  /** The handovers' group commit as its metrics saw it: statements, their size, the senders' wait. */
  private static void printHandovers(String backend, SimpleMeterRegistry metrics, PrintStream out) {
    var batches = metrics.find("tidings_send_handover_batch_size").summary();
    var writes =
        metrics.find("tidings_send_handover_write_seconds").tag("result", "ok").timer();
    var waits = metrics.find("tidings_send_handover_wait_seconds").timer();
    if (batches == null || writes == null || waits == null) return;
    out.printf(
        "  %s: %,d handovers in %,d statements (mean %.1f, max %.0f), %.2f ms a statement,"
            + " senders waited %.2f ms on average (max %.1f ms)%n",
        backend,
        (long) batches.totalAmount(),
        batches.count(),
        batches.mean(),
        batches.max(),
        writes.mean(TimeUnit.MILLISECONDS),
        waits.mean(TimeUnit.MILLISECONDS),
        waits.max(TimeUnit.MILLISECONDS));
  }

  private static Iterator<String> ids(int count) {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public String next() {
        if (next >= count) throw new NoSuchElementException();
        return "s" + next++;
      }
    };
  }

  private static void resetPeaks() {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
      if (pool.getType() == MemoryType.HEAP) pool.resetPeakUsage();
  }

  /** The sum of the heap pools' peaks: an upper bound of the heap in use at any one moment. */
  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
      if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
    return peak;
  }

  /** Times every compose call, to report render time per email. */
  private static final class TimedComposer implements Composer {
    private final Composer inner;
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong count = new AtomicLong();

    TimedComposer(Composer inner) {
      this.inner = inner;
    }

    @Override
    public Composed compose(SendJob job, MessageId message) {
      long began = System.nanoTime();
      try {
        return inner.compose(job, message);
      } finally {
        nanos.addAndGet(System.nanoTime() - began);
        count.incrementAndGet();
      }
    }

    double micros() {
      long n = count.get();
      return n == 0 ? 0 : nanos.get() / 1e3 / n;
    }
  }
}
