package dev.tidings.bench;

/** Where a benchmark reports how far a phase has got; the command decides how to show it. */
public interface Tracker extends AutoCloseable {
  void stepTo(long done);

  @Override
  void close();
}
