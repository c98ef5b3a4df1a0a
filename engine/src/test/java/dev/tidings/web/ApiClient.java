package dev.tidings.web;

import dev.tidings.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/** A real HTTP client for tests against a running {@link HttpServer}. */
final class ApiClient {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;
  private final String apiKey;

  ApiClient(int port, String apiKey) {
    this.port = port;
    this.apiKey = apiKey;
  }

  record Answer(int status, String body) {
    JsonNode json() {
      return Json.MAPPER.readTree(body);
    }

    String detail() {
      return json().path("detail").asString();
    }
  }

  Answer get(String path) {
    return send(request(path).GET());
  }

  Answer delete(String path) {
    return send(request(path).DELETE());
  }

  Answer post(String path, String contentType, String body) {
    return send(request(path)
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /**
   * A POST that asks first ({@code Expect: 100-continue}): a body the server refuses by its length is
   * answered before it is sent; otherwise the client may still be writing when the server answers and
   * closes, and sees a broken connection instead of the answer.
   */
  Answer postAskingFirst(String path, String contentType, String body) {
    return send(request(path)
        .expectContinue(true)
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  Answer put(String path, String contentType, String body) {
    return send(request(path)
        .header("Content-Type", contentType)
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  Answer postJson(String path, String body) {
    return post(path, "application/json", body);
  }

  Answer patchJson(String path, String body) {
    return send(request(path)
        .header("Content-Type", "application/json")
        .method("PATCH", HttpRequest.BodyPublishers.ofString(body)));
  }

  Answer putJson(String path, String body) {
    return put(path, "application/json", body);
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + apiKey);
  }

  private Answer send(HttpRequest.Builder builder) {
    try {
      var response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
