package dev.tidings.catalog;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.fuzz.ImportRows;
import dev.tidings.fuzz.Inputs;
import dev.tidings.imports.Format;

/**
 * Product import rows (CSV, JSON Lines, the XML and tab-separated product feeds) and the product JSON body:
 * a value or InvalidInputException.
 */
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
  void product_feed_xml_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.FEED_XML, ProductFeedRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void product_feed_tsv_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.FEED_TSV, ProductFeedRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void product_json(byte[] data) {
    Inputs.json(data)
        .ifPresent(
            node -> allowOnly(() -> ProductJson.fromJson(node), InvalidInputException.class));
  }
}
