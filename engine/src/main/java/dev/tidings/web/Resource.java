package dev.tidings.web;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A collection exposed the same way whatever it holds: list (keyset pages), create (409 if it exists),
 * read, replace (id from the path), delete, and streaming bulk import at {@code {path}/import}.
 *
 * @param path e.g. {@code /api/v1/products}
 * @param noun e.g. {@code product}, for messages
 * @param create stores the item unless its id exists, in one step (empty when it exists), so that of
 *     concurrent creates of one id exactly one succeeds
 */
public record Resource<T>(
    String path,
    String noun,
    Function<JsonNode, T> fromJson,
    Function<T, ?> toJson,
    Function<T, String> id,
    BiFunction<Optional<String>, Integer, List<T>> list,
    Function<String, Optional<T>> get,
    Function<T, Optional<T>> create,
    UnaryOperator<T> put,
    Predicate<String> delete,
    Imports.Importer importer) {

  public void register(HttpRouting.Builder routing, long maxBodyBytes, Uploads uploads) {
    register(routing, (request, after, limit) -> list.apply(after, limit), maxBodyBytes, uploads);
  }

  /** A page of the list, read with the request at hand (a search by its own query parameters). */
  @FunctionalInterface
  public interface Lister<T> {
    List<T> page(ServerRequest request, Optional<String> after, int limit);
  }

  /** {@link #register}, with the list answered by {@code lister} instead of {@link #list}. */
  public void register(
      HttpRouting.Builder routing, Lister<T> lister, long maxBodyBytes, Uploads uploads) {
    routing.get(path, (request, response) -> {
      int limit = Requests.limit(request);
      JsonBodies.ok(
          response,
          Page.of(
              lister.page(request, Requests.query(request, "after"), limit), limit, toJson, id));
    });
    routing.post(
        path + "/import",
        (request, response) -> Imports.handle(request, response, uploads, importer));
    routing.post(path, (request, response) -> {
      T item = fromJson.apply(JsonBodies.read(request, maxBodyBytes));
      String itemId = id.apply(item);
      T created = create
          .apply(item)
          .orElseThrow(() -> ApiProblem.conflict(
              noun + " " + itemId + " exists; PUT " + path + "/" + itemId + " replaces it"));
      response.header(HeaderNames.LOCATION, path + "/" + itemId);
      JsonBodies.write(response, 201, toJson.apply(created));
    });
    routing.get(path + "/{id}", (request, response) -> {
      String itemId = Requests.path(request, "id");
      JsonBodies.ok(response, toJson.apply(get.apply(itemId).orElseThrow(() -> notFound(itemId))));
    });
    routing.put(
        path + "/{id}",
        (request, response) -> JsonBodies.ok(
            response,
            toJson.apply(put.apply(
                fromJson.apply(withPathId(request, JsonBodies.read(request, maxBodyBytes)))))));
    routing.delete(path + "/{id}", (request, response) -> {
      String itemId = Requests.path(request, "id");
      if (!delete.test(itemId)) throw notFound(itemId);
      response.status(204).send();
    });
  }

  public ApiProblem notFound(String itemId) {
    return ApiProblem.notFound("no " + noun + " with id " + itemId);
  }

  /** PUT names the item in its path; a body that names another id is a contradiction, not a rename. */
  private static JsonNode withPathId(ServerRequest request, JsonNode body) {
    String id = Requests.path(request, "id");
    if (!(body instanceof ObjectNode object))
      throw ApiProblem.unprocessable("the body must be a JSON object");
    JsonNode given = object.get("id");
    if (given == null || given.isNull()) {
      object.put("id", id);
    } else if (!given.isString() || !given.asString().equals(id)) {
      throw ApiProblem.unprocessable(
          "id in the body (" + given + ") differs from the id in the path (" + id + ")");
    }
    return object;
  }
}
