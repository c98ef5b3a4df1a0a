package dev.tidings.tools;

import dev.tidings.bench.Tracker;
import dev.tidings.cli.Progress;

/** A benchmark's phase shown as the command line's progress bar. */
final class ProgressTracker implements Tracker {
  private final Progress progress;

  private ProgressTracker(Progress progress) {
    this.progress = progress;
  }

  static Tracker of(String task, long total) {
    return new ProgressTracker(Progress.of(task, total));
  }

  static Tracker of(String task, long total, String unit) {
    return new ProgressTracker(Progress.of(task, total, unit));
  }

  @Override
  public void stepTo(long done) {
    progress.stepTo(done);
  }

  @Override
  public void close() {
    progress.close();
  }
}
