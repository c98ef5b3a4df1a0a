package dev.tidings.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tidings.Json;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** How fuzz targets turn the fuzzer's bytes into what a parser takes, the way the edge does. */
public final class Inputs {
  private Inputs() {}

  /** The bytes as text; malformed UTF-8 becomes U+FFFD, as a lenient HTTP layer would hand it on. */
  public static String text(byte[] data) {
    return new String(data, UTF_8);
  }

  /**
   * The bytes as a JSON tree read by Tidings' own mapper (the limits of the HTTP edge), or empty when
   * the edge would have refused them as malformed JSON before any parser saw them.
   */
  public static Optional<JsonNode> json(byte[] data) {
    try {
      JsonNode node = Json.MAPPER.readTree(data);
      return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
    } catch (JacksonException | NumberFormatException malformed) {
      return Optional.empty(); // the edge's reader refuses both as malformed JSON (a 400)
    }
  }
}
