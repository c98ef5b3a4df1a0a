package dev.tidings.faults;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tidings.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.assertj.core.api.Assertions;

/**
 * Where every fault scenario says what happened: printed for the person watching the build, appended to
 * {@code target/faults/outcomes.jsonl}, and folded into {@code target/faults/reliability.md}, one row a
 * scenario (the latest outcome of each), which docs/reliability.md copies.
 */
public final class FaultReport {
  private static final Path DIRECTORY = Path.of("target", "faults");

  private FaultReport() {}

  /**
   * One scenario's outcome.
   *
   * @param scenario the scenario's number and name, e.g. "2a RabbitMQ node killed during receipts"
   * @param servers what it ran on, e.g. "3-node RabbitMQ, quorum queues"
   * @param acknowledged what clients were told is done (receipts answered, publishes confirmed, ...)
   * @param stored what the store holds of them afterwards
   * @param lost acknowledged but not stored
   * @param duplicated stored more than once, or applied twice
   * @param unknown recipients reported as unknown (the SMTP window), not lost
   * @param recovery from the fault to the first success after it
   * @param note what else the reader should know (fallbacks counted, stale writes refused, ...)
   */
  public record Outcome(
      String scenario,
      String servers,
      long acknowledged,
      long stored,
      long lost,
      long duplicated,
      long unknown,
      Duration recovery,
      String note) {
    public Outcome {
      Objects.requireNonNull(scenario, "scenario");
      Objects.requireNonNull(servers, "servers");
      Objects.requireNonNull(recovery, "recovery");
      Objects.requireNonNull(note, "note");
    }

    public static Outcome of(
        String scenario,
        String servers,
        Tally tally,
        long unknown,
        Duration recovery,
        String note) {
      return new Outcome(
          scenario,
          servers,
          tally.acknowledged(),
          tally.stored(),
          tally.lost(),
          tally.duplicated(),
          unknown,
          recovery,
          note);
    }
  }

  /** Prints and records the outcome, then fails the test when anything was lost or duplicated. */
  public static void recordAndCheck(Outcome outcome) {
    record(outcome);
    Assertions.assertThat(outcome.lost()).as(outcome.scenario() + ": lost").isZero();
    Assertions.assertThat(outcome.duplicated())
        .as(outcome.scenario() + ": duplicated")
        .isZero();
  }

  public static synchronized void record(Outcome outcome) {
    System.out.printf(
        "%n[fault] %s on %s: acknowledged %,d, stored %,d, lost %,d, duplicated %,d, unknown %,d,"
            + " recovery %.1f s. %s%n",
        outcome.scenario(),
        outcome.servers(),
        outcome.acknowledged(),
        outcome.stored(),
        outcome.lost(),
        outcome.duplicated(),
        outcome.unknown(),
        outcome.recovery().toMillis() / 1000.0,
        outcome.note());
    try {
      Files.createDirectories(DIRECTORY);
      Path lines = DIRECTORY.resolve("outcomes.jsonl");
      Files.writeString(
          lines,
          Json.MAPPER.writeValueAsString(outcome) + "\n",
          UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      Files.writeString(DIRECTORY.resolve("reliability.md"), table(read(lines)), UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Outcome> read(Path lines) throws IOException {
    Map<String, Outcome> latest = new LinkedHashMap<>();
    for (String line : Files.readAllLines(lines, UTF_8)) {
      if (line.isBlank()) continue;
      Outcome outcome = Json.MAPPER.readValue(line, Outcome.class);
      latest.remove(outcome.scenario());
      latest.put(outcome.scenario(), outcome);
    }
    var sorted = new ArrayList<>(latest.values());
    sorted.sort((a, b) -> a.scenario().compareTo(b.scenario()));
    return sorted;
  }

  static String table(List<Outcome> outcomes) {
    var out = new StringBuilder();
    out.append(
        "| scenario | servers | acknowledged | stored | lost | duplicated | unknown | recovery |"
            + " notes |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (Outcome o : outcomes) {
      out.append(String.format(
          "| %s | %s | %,d | %,d | %,d | %,d | %,d | %.1f s | %s |%n",
          o.scenario(),
          o.servers(),
          o.acknowledged(),
          o.stored(),
          o.lost(),
          o.duplicated(),
          o.unknown(),
          o.recovery().toMillis() / 1000.0,
          o.note().replace("|", "\\|")));
    }
    return out.toString();
  }
}
