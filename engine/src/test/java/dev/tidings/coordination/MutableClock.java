package dev.tidings.coordination;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when a test moves it. */
public final class MutableClock implements InstantSource {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-03-01T08:00:00Z"));

  @Override
  public Instant instant() {
    return now.get();
  }

  public void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }
}
