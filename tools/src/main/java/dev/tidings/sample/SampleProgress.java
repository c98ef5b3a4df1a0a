package dev.tidings.sample;

/**
 * Told now and then how far a long generation has come. {@code expected} is -1 where the total is
 * only known at the end (follows, events). Called on the generating thread; keep it cheap.
 */
@FunctionalInterface
public interface SampleProgress {
  SampleProgress NONE = (kind, written, expected) -> {};

  void rowsWritten(String kind, long written, long expected);
}
