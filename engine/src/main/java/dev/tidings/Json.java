package dev.tidings;

import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper of the program: API bodies, import lines, stored JSON and CLI output all read
 * and write numbers the same way, so a price never goes through a double on any path.
 */
public final class Json {
  /** Longest JSON string value, in characters; documents are bounded by their transport (body or line limits). */
  public static final int MAX_STRING_CHARS = 64 * 1024;

  /**
   * Floats are read as BigDecimal so that "12.50" keeps its scale and 12345678901234567.89 all its digits;
   * decimals are written plain (never 1E+3).
   */
  public static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxStringLength(MAX_STRING_CHARS)
              .maxNestingDepth(32)
              .build())
          .build())
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .build();

  private Json() {}
}
