package dev.tidings.config;

import java.time.Duration;

/**
 * How long what grows with traffic lives, and how the worker nodes remove it (README, Retention).
 *
 * @param messages an email's own records, after the last thing that happened to it
 * @param events activity events, after they happened
 * @param deadLetters dead letters of the queue tables, after they died
 * @param eventLog events in the event log, after they were relayed
 * @param interval how often a worker node removes what expired
 * @param batch rows removed per transaction
 */
public record RetentionSettings(
    Duration messages,
    Duration events,
    Duration deadLetters,
    Duration eventLog,
    Duration interval,
    int batch) {

  public RetentionSettings {
    for (Duration lifetime : new Duration[] {messages, events, deadLetters, eventLog, interval})
      if (lifetime.isNegative() || lifetime.isZero())
        throw new IllegalArgumentException("retention durations must be longer than zero");
    if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
  }

  /** What a node gets with none of the settings given. */
  public static RetentionSettings defaults() {
    return new RetentionSettings(
        SettingsCatalog.RETENTION_MESSAGES.durationDefault(),
        SettingsCatalog.RETENTION_EVENTS.durationDefault(),
        SettingsCatalog.RETENTION_DEAD_LETTERS.durationDefault(),
        SettingsCatalog.RETENTION_EVENT_LOG.durationDefault(),
        SettingsCatalog.RETENTION_INTERVAL.durationDefault(),
        SettingsCatalog.RETENTION_BATCH.intDefault());
  }
}
