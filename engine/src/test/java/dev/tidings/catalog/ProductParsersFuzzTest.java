package dev.tidings.catalog;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.fuzz.ImportRows;
import dev.tidings.fuzz.Inputs;
import dev.tidings.imports.Format;
import java.util.Currency;
import java.util.Map;

/**
 * Product import rows (CSV and JSON Lines with market prices, the XML and tab-separated product feeds) and the product JSON body:
 * a value or InvalidInputException.
 */
class ProductParsersFuzzTest {
  /** The import format as an import with two markets reads it, market prices included. */
  private static final ProductImportRows IMPORT_ROWS = new ProductImportRows(
      Map.of("GB", Currency.getInstance("GBP"), "JP", Currency.getInstance("JPY")));

  @FuzzTest
  void product_csv_rows(byte[] data) {
    allowOnly(() -> ImportRows.readAll(data, Format.CSV, IMPORT_ROWS), InvalidInputException.class);
  }

  @FuzzTest
  void product_json_lines_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.JSON_LINES, IMPORT_ROWS),
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
