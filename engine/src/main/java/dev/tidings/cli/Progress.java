package dev.tidings.cli;

import java.io.Console;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.jspecify.annotations.Nullable;

/**
 * Progress of long CLI work on standard error: a live bar on a terminal, a plain line every few
 * seconds otherwise (CI logs, pipes), so neither drowns the output nor stays silent for minutes.
 */
public final class Progress implements AutoCloseable {
  private static final long PLAIN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);
  private final @Nullable ProgressBar bar;
  private final String task;
  private final String unit;
  private final long total;
  private final @Nullable PrintStream plain;
  private long lastPlain = System.nanoTime();
  private long current;

  private Progress(String task, long total, String unit) {
    this.task = task;
    this.unit = unit;
    this.total = total;
    if (onTerminal()) {
      this.bar = new ProgressBarBuilder()
          .setTaskName(task)
          .setUnit(" " + unit, 1)
          .setInitialMax(total > 0 ? total : -1)
          .setStyle(ProgressBarStyle.ASCII)
          .setUpdateIntervalMillis(250)
          .showSpeed()
          .setConsumer(new ConsoleProgressBarConsumer(System.err))
          .build();
      this.plain = null;
    } else {
      this.bar = null;
      this.plain = System.err;
    }
  }

  /** A console whose output is a terminal (JDK 22-24 return a console for pipes too; 25 returns null again). */
  @SuppressWarnings("SystemConsoleNull") // the null check is for JDK 25, isTerminal() for 22-24
  private static boolean onTerminal() {
    Console console = System.console();
    return console != null && console.isTerminal();
  }

  /** {@code total} <= 0 when unknown; counts rows. */
  public static Progress of(String task, long total) {
    return new Progress(task, total, "rows");
  }

  /** Counts {@code unit} (plural: "messages", "calls"). */
  public static Progress of(String task, long total, String unit) {
    return new Progress(task, total, unit);
  }

  public synchronized void stepTo(long done) {
    current = done;
    if (bar != null) {
      bar.stepTo(done);
    } else if (plain != null && System.nanoTime() - lastPlain > PLAIN_EVERY_NANOS) {
      lastPlain = System.nanoTime();
      plain.println(task + ": " + done + (total > 0 ? " of " + total : "") + " " + unit);
    }
  }

  @Override
  public synchronized void close() {
    if (bar != null) {
      bar.stepTo(current);
      bar.close();
    }
  }
}
