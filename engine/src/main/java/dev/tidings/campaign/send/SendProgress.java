package dev.tidings.campaign.send;

import java.time.Instant;
import java.util.Optional;

/** A run's numbers, as the CLI's progress bar and {@code GET /api/v1/campaigns/{id}} show them. */
public record SendProgress(
    SendJob job,
    SendState state,
    long planned,
    long sent,
    long failed,
    long unknown,
    long skipped,
    Instant startedAt,
    Optional<Instant> finishedAt,
    double recentPerSecond) {

  public long done() {
    return sent + failed + unknown + skipped;
  }
}
