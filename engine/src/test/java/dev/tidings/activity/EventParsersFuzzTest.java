package dev.tidings.activity;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.fuzz.ImportRows;
import dev.tidings.fuzz.Inputs;
import dev.tidings.imports.Format;

/** Activity events as import rows (CSV, JSON Lines) and as the event API's JSON: a value or InvalidInputException. */
class EventParsersFuzzTest {
  @FuzzTest
  void event_csv_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.CSV, EventRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void event_json_lines_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.JSON_LINES, EventRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void event_json(byte[] data) {
    Inputs.json(data)
        .ifPresent(
            node -> allowOnly(() -> ActivityIntake.fromJson(node), InvalidInputException.class));
  }
}
