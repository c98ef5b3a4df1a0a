package dev.tidings.web;

import dev.tidings.Json;
import dev.tidings.StoredText;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Reading and writing JSON bodies with the checks every JSON endpoint shares: type, size, syntax. */
public final class JsonBodies {
  private static final String JSON = "application/json";

  private JsonBodies() {}

  /**
   * The request body as a JSON tree; 415 unless it is JSON, 413 past {@code maxBytes}, 400 when malformed,
   * 422 naming the field when a string holds what PostgreSQL text cannot (see {@link StoredText}).
   */
  public static JsonNode read(ServerRequest request, long maxBytes) {
    requireContentType(request, JSON);
    try (InputStream body = Bodies.limited(request, maxBytes)) {
      JsonNode node = Json.MAPPER.readTree(body);
      if (node == null || node.isMissingNode())
        throw ApiProblem.badRequest("the request body is empty; a JSON document was expected");
      String unstorable = StoredText.problemIn(node);
      if (unstorable != null) throw ApiProblem.unprocessable(unstorable);
      return node;
    } catch (BodyTooLargeException e) {
      throw ApiProblem.tooLarge(e.limit());
    } catch (NumberFormatException e) {
      // a number whose exponent or digits are past what a decimal can hold:
      // bad input, not a failure
      throw ApiProblem.badRequest("malformed JSON: a number too large to read");
    } catch (JacksonException e) {
      if (e.getCause() instanceof BodyTooLargeException tooLarge)
        throw ApiProblem.tooLarge(tooLarge.limit());
      throw ApiProblem.badRequest("malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void write(ServerResponse response, int status, Object body) {
    response.status(status);
    response.header(HeaderNames.CONTENT_TYPE, "application/json; charset=UTF-8");
    response.send(Json.MAPPER.writeValueAsBytes(body));
  }

  public static void ok(ServerResponse response, Object body) {
    write(response, 200, body);
  }

  /** 415 unless the request declares one of {@code accepted} media types (parameters such as charset ignored). */
  public static HttpMediaType requireContentType(ServerRequest request, String... accepted) {
    var declared = request.headers().contentType();
    if (declared.isEmpty()) {
      throw ApiProblem.unsupportedMediaType(
          "a Content-Type header is required; expected " + String.join(" or ", accepted));
    }
    String actual = declared.get().mediaType().text().toLowerCase(Locale.ROOT);
    for (String type : accepted) {
      if (actual.equals(type)) return declared.get();
    }
    throw ApiProblem.unsupportedMediaType("Content-Type " + actual
        + " is not accepted here; expected " + String.join(" or ", accepted));
  }

  public static boolean isJson(HttpMediaType type) {
    return type.test(MediaTypes.APPLICATION_JSON);
  }
}
