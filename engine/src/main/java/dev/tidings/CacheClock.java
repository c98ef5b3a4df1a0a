package dev.tidings;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Caffeine's ticker read from an {@link InstantSource}: a cache whose entries go stale by time ages on
 * the same clock as the class that owns it, so a test moves its clock instead of sleeping.
 */
public final class CacheClock {
  private CacheClock() {}

  public static Ticker of(InstantSource clock) {
    return () -> {
      Instant now = clock.instant();
      return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    };
  }
}
