package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The document says what the edge does on every route: any route that reaches a server answers 503
 * with Retry-After when the server is down (web.ErrorMapping), so every API and webhook operation
 * lists that answer.
 */
class OpenApiDocumentTest {
  private static JsonNode document() throws IOException {
    try (InputStream in = OpenApiDocumentTest.class.getResourceAsStream("/web/openapi.json")) {
      return Json.MAPPER.readTree(in);
    }
  }

  @Test
  void every_api_and_webhook_operation_documents_the_outage_answer() throws IOException {
    JsonNode document = document();
    List<String> missing = new ArrayList<>();
    int operations = 0;
    for (String path : document.path("paths").propertyNames()) {
      if (!(path.startsWith("/api/") || path.startsWith("/webhooks/"))
          || path.equals("/api/v1/openapi.json")) continue;
      for (String method : document.path("paths").path(path).propertyNames()) {
        JsonNode responses = document.path("paths").path(path).path(method).path("responses");
        if (responses.isMissingNode()) continue;
        operations++;
        if (!responses.has("503")) missing.add(method + " " + path);
      }
    }
    assertThat(operations).isGreaterThan(50);
    assertThat(missing).isEmpty();
    JsonNode unavailable = document.path("components").path("responses").path("Unavailable");
    assertThat(unavailable.path("headers").has("Retry-After")).isTrue();
  }
}
