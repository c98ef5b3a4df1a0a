package dev.tidings.queue.postgres;

import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Message headers as the jsonb object stored beside the body. */
final class HeadersJson {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  private HeadersJson() {}

  static String write(Map<String, String> headers) {
    return JSON.writeValueAsString(headers);
  }

  static Map<String, String> read(String json) {
    return Map.copyOf(JSON.readValue(json, STRING_MAP));
  }
}
