package dev.tidings.imports;

import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapper of imports and of the records' JSON form: exact decimals, bounded input. */
public final class Json {
  /** Floats are read as BigDecimal so that "12.50" keeps its scale and no price goes through a double. */
  public static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxStringLength(ImportLimits.MAX_FIELD_CHARS)
              .maxNestingDepth(32)
              .maxDocumentLength(ImportLimits.MAX_RECORD_CHARS)
              .build())
          .build())
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .build();

  private Json() {}
}
