package dev.tidings.catalog;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.fuzz.ImportRows;
import dev.tidings.fuzz.Inputs;
import dev.tidings.imports.Format;

/** Product import rows (CSV and JSON Lines) and the product JSON body: a value or InvalidInputException. */
class ProductParsersFuzzTest {
  @FuzzTest
  void product_csv_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.CSV, ProductRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void product_json_lines_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.JSON_LINES, ProductRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void product_json(byte[] data) {
    Inputs.json(data)
        .ifPresent(
            node -> allowOnly(() -> ProductJson.fromJson(node), InvalidInputException.class));
  }
}
