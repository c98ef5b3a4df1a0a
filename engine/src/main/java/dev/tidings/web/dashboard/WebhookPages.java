package dev.tidings.web.dashboard;

import dev.tidings.LogText;
import dev.tidings.Problem;
import dev.tidings.events.CloudEventType;
import dev.tidings.webhooks.EndpointFields;
import dev.tidings.webhooks.SigningSecret;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoint;
import dev.tidings.webhooks.WebhookEndpoints;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Outgoing webhooks on the dashboard: the endpoints ({@code /webhooks}: list and register one;
 * {@code /webhooks/{id}}: change, rotate its secret, delete, replay its dead letters), and the section
 * of the System page that shows each endpoint's failures and the dead letters with a replay button.
 * Every form goes through the {@link FormGuard}; a secret is shown once, on the page that answers its
 * creation or rotation.
 */
final class WebhookPages {
  private static final Logger log = LoggerFactory.getLogger(WebhookPages.class);
  private static final Pattern ID = Pattern.compile("ep_[0-9a-f]{16}");
  private static final int FORM_BYTES = 8192;
  /** Dead letters the System page and an endpoint's page list, newest first. */
  static final int DEAD_LETTERS_SHOWN = 50;

  private static final String TYPE_FIELD = "type:";

  private final WebhookPagesSources sources;

  WebhookPages(WebhookPagesSources sources) {
    this.sources = sources;
  }

  void register(
      HttpRouting.Builder routing, Function<Pages.PageHandler, Handler> page, FormGuard guard) {
    routing.get("/webhooks", page.apply(this::list));
    routing.post("/webhooks", page.apply((rq, rs, v) -> create(rq, rs, v, guard)));
    routing.get("/webhooks/{id}", page.apply(this::endpoint));
    routing.post("/webhooks/{id}", page.apply((rq, rs, v) -> update(rq, rs, v, guard)));
    routing.post(
        "/webhooks/{id}/rotate-secret", page.apply((rq, rs, v) -> rotate(rq, rs, v, guard)));
    routing.post("/webhooks/{id}/delete", page.apply((rq, rs, v) -> delete(rq, rs, v, guard)));
    routing.post(
        "/webhooks/{id}/replay-all", page.apply((rq, rs, v) -> replayAll(rq, rs, v, guard)));
    routing.post(
        "/system/webhook-dead-letters/{letter}/replay",
        page.apply((rq, rs, v) -> replay(rq, rs, v, guard)));
  }

  // ---- the System page's section

  record SystemSection(
      String csrf,
      List<EndpointRow> endpoints,
      boolean noEndpoints,
      List<LetterRow> letters,
      boolean noLetters,
      long deadLetters,
      int shown) {}

  record EndpointRow(
      String path,
      String id,
      String url,
      String description,
      String types,
      boolean enabled,
      String lastSuccess,
      String lastFailureAt,
      String lastFailure,
      int failuresInARow,
      boolean failing) {}

  record LetterRow(
      String replayPath,
      String endpointPath,
      String endpointId,
      String eventId,
      String eventType,
      int attempts,
      String lastError,
      String deadAt) {}

  /** The System page's section, or a line that says why it cannot be read now. */
  String systemSection(Visitor visitor) {
    try {
      var endpoints = sources.endpoints().list();
      var letters = sources.deadLetters().recent(DEAD_LETTERS_SHOWN);
      return Templates.render(
          "system-webhooks",
          new SystemSection(
              visitor.token(),
              endpoints.stream().map(WebhookPages::row).toList(),
              endpoints.isEmpty(),
              letters.stream().map(WebhookPages::row).toList(),
              letters.isEmpty(),
              sources.deadLetters().count(),
              DEAD_LETTERS_SHOWN));
    } catch (RuntimeException unavailable) {
      return "<section class=\"card wide\"><h2 id=\"webhooks\">Outgoing webhooks</h2>"
          + "<p class=\"down\">Unavailable: the database does not answer.</p></section>";
    }
  }

  private static EndpointRow row(WebhookEndpoint endpoint) {
    return new EndpointRow(
        "/webhooks/" + endpoint.id(),
        endpoint.id(),
        endpoint.url().toString(),
        endpoint.description(),
        endpoint.types().isEmpty()
            ? "every type"
            : endpoint.types().size() == 1
                ? endpoint.types().iterator().next().typeName()
                : endpoint.types().size() + " types",
        endpoint.enabled(),
        when(endpoint.lastSuccessAt(), "never"),
        when(endpoint.lastFailureAt(), "never"),
        endpoint.lastFailure() == null ? "" : endpoint.lastFailure(),
        endpoint.failuresInARow(),
        endpoint.failuresInARow() > 0);
  }

  private static LetterRow row(WebhookDeadLetters.DeadLetter letter) {
    return new LetterRow(
        "/system/webhook-dead-letters/" + letter.id() + "/replay",
        "/webhooks/" + letter.endpointId(),
        letter.endpointId(),
        letter.eventId(),
        letter.eventType(),
        letter.attempts(),
        letter.lastError(),
        Html.time(letter.deadAt()));
  }

  private static String when(@Nullable Instant instant, String otherwise) {
    return instant == null ? otherwise : Html.time(instant);
  }

  // ---- the endpoints' pages

  record TypeChoice(String field, String name, boolean checked) {}

  record Form(
      String action,
      String url,
      String description,
      boolean enabled,
      List<TypeChoice> types,
      boolean everyType) {}

  record ListView(
      String csrf,
      List<EndpointRow> endpoints,
      boolean noEndpoints,
      Form form,
      List<String> problems,
      boolean hasProblems,
      List<String> notice,
      int max) {}

  record EndpointView(
      String csrf,
      String id,
      String path,
      String state,
      String lastSuccess,
      String lastFailureAt,
      String lastFailure,
      int failuresInARow,
      String failingClass,
      Form form,
      List<String> problems,
      boolean hasProblems,
      List<String> notice,
      String previousSecretUntil,
      List<LetterRow> letters,
      boolean noLetters) {}

  record SecretView(
      String id, String path, String secret, String why, String previousSecretUntil) {}

  private void list(ServerRequest request, ServerResponse response, Visitor visitor) {
    var notice = request.query().first("done").asOptional().flatMap(WebhookPages::notice);
    showList(response, visitor, 200, emptyForm(), List.of(), notice);
  }

  private void showList(
      ServerResponse response,
      Visitor visitor,
      int status,
      Form form,
      List<String> problems,
      Optional<String> notice) {
    var endpoints = sources.endpoints().list();
    Html.send(
        response,
        status,
        Html.page(
            "Webhooks",
            Html.Section.SYSTEM,
            visitor,
            Templates.render(
                "webhooks",
                new ListView(
                    visitor.token(),
                    endpoints.stream().map(WebhookPages::row).toList(),
                    endpoints.isEmpty(),
                    form,
                    problems,
                    !problems.isEmpty(),
                    notice.stream().toList(),
                    WebhookEndpoints.MAX_ENDPOINTS))));
  }

  private void create(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    var posted = guard.accept(request, response, visitor, FORM_BYTES);
    if (posted.isEmpty()) return;
    var fields = posted.get();
    var asTyped = form("/webhooks", fields);
    var wanted = endpointFields(fields);
    var problems = sources.endpoints().problems(wanted, true);
    if (!problems.isEmpty()) {
      showList(response, visitor, 422, asTyped, messages(problems), Optional.empty());
      return;
    }
    var created = sources.endpoints().create(wanted);
    log.info(
        "webhook endpoint {} registered from the dashboard", created.endpoint().id());
    showSecret(response, visitor, created.endpoint().id(), created.secret(), "registered", null);
  }

  private void endpoint(ServerRequest request, ServerResponse response, Visitor visitor) {
    var found = known(request, response, visitor);
    if (found.isEmpty()) return;
    var notice = request.query().first("done").asOptional().flatMap(WebhookPages::notice);
    showEndpoint(response, visitor, 200, found.get(), formOf(found.get()), List.of(), notice);
  }

  private void showEndpoint(
      ServerResponse response,
      Visitor visitor,
      int status,
      WebhookEndpoint endpoint,
      Form form,
      List<String> problems,
      Optional<String> notice) {
    var letters = sources.deadLetters().recent(DEAD_LETTERS_SHOWN * 4).stream()
        .filter(letter -> letter.endpointId().equals(endpoint.id()))
        .limit(DEAD_LETTERS_SHOWN)
        .map(WebhookPages::row)
        .toList();
    Html.send(
        response,
        status,
        Html.page(
            "Webhook " + endpoint.id(),
            Html.Section.SYSTEM,
            visitor,
            Templates.render(
                "webhook",
                new EndpointView(
                    visitor.token(),
                    endpoint.id(),
                    "/webhooks/" + endpoint.id(),
                    endpoint.enabled() ? "enabled" : "disabled: sent nothing",
                    when(endpoint.lastSuccessAt(), "never"),
                    when(endpoint.lastFailureAt(), "never"),
                    endpoint.lastFailure() == null ? "" : "(" + endpoint.lastFailure() + ")",
                    endpoint.failuresInARow(),
                    endpoint.failuresInARow() > 0 ? "down" : "",
                    form,
                    problems,
                    !problems.isEmpty(),
                    notice.stream().toList(),
                    when(endpoint.previousSecretUntil(), "no previous secret"),
                    letters,
                    letters.isEmpty()))));
  }

  private void update(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    var posted = guard.accept(request, response, visitor, FORM_BYTES);
    if (posted.isEmpty()) return;
    var found = known(request, response, visitor);
    if (found.isEmpty()) return;
    var fields = posted.get();
    String path = "/webhooks/" + found.get().id();
    var wanted = endpointFields(fields);
    var problems = sources.endpoints().problems(wanted, false);
    if (!problems.isEmpty()) {
      showEndpoint(
          response,
          visitor,
          422,
          found.get(),
          form(path, fields),
          messages(problems),
          Optional.empty());
      return;
    }
    var updated = sources.endpoints().update(found.get().id(), wanted);
    Html.redirect(response, updated.isEmpty() ? "/webhooks?done=gone" : path + "?done=saved");
  }

  private void rotate(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    if (guard.accept(request, response, visitor, FORM_BYTES).isEmpty()) return;
    var found = known(request, response, visitor);
    if (found.isEmpty()) return;
    var rotated = sources.endpoints().rotate(found.get().id());
    if (rotated.isEmpty()) {
      Html.redirect(response, "/webhooks?done=gone");
      return;
    }
    log.info(
        "webhook endpoint {} secret rotated from the dashboard", found.get().id());
    showSecret(
        response,
        visitor,
        found.get().id(),
        rotated.get().secret(),
        "rotated",
        rotated.get().previousUntil());
  }

  private void delete(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    if (guard.accept(request, response, visitor, FORM_BYTES).isEmpty()) return;
    var found = known(request, response, visitor);
    if (found.isEmpty()) return;
    boolean deleted = sources.endpoints().delete(found.get().id());
    if (deleted) sources.deadLetters().dropFor(found.get().id());
    log.info("webhook endpoint {} deleted from the dashboard", found.get().id());
    Html.redirect(response, "/webhooks?done=" + (deleted ? "deleted" : "gone"));
  }

  private void replayAll(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    if (guard.accept(request, response, visitor, FORM_BYTES).isEmpty()) return;
    var found = known(request, response, visitor);
    if (found.isEmpty()) return;
    int replayed = sources.deadLetters().replayAll(found.get().id());
    log.info(
        "{} webhook dead letters of {} replayed from the dashboard",
        replayed,
        found.get().id());
    Html.redirect(response, "/webhooks/" + found.get().id() + "?done=replayed");
  }

  private void replay(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    if (guard.accept(request, response, visitor, FORM_BYTES).isEmpty()) return;
    String raw = request.path().pathParameters().first("letter").orElse("");
    long id;
    try {
      id = raw.length() > 18 ? -1 : Long.parseLong(raw);
    } catch (NumberFormatException e) {
      id = -1;
    }
    var replayed = id < 0 ? Optional.empty() : sources.deadLetters().replay(id);
    log.info(
        "webhook dead letter {} {} from the dashboard",
        LogText.of(raw),
        replayed.isPresent() ? "replayed" : "was not there to replay");
    Html.redirect(
        response, "/system?done=" + (replayed.isPresent() ? "replayed" : "gone") + "#webhooks");
  }

  private void showSecret(
      ServerResponse response,
      Visitor visitor,
      String id,
      SigningSecret secret,
      String why,
      @Nullable Instant previousUntil) {
    Html.send(
        response,
        200,
        Html.page(
            "Webhook secret",
            Html.Section.SYSTEM,
            visitor,
            Templates.render(
                "webhook-secret",
                new SecretView(
                    id, "/webhooks/" + id, secret.value(), why, when(previousUntil, "")))));
  }

  private Optional<WebhookEndpoint> known(
      ServerRequest request, ServerResponse response, Visitor visitor) {
    String id = request.path().pathParameters().first("id").orElse("");
    var found =
        ID.matcher(id).matches() ? sources.endpoints().get(id) : Optional.<WebhookEndpoint>empty();
    if (found.isEmpty())
      Html.send(
          response,
          404,
          Html.page(
              "Not found",
              Html.Section.SYSTEM,
              visitor,
              Templates.render("notfound", new Html.NotFound("No such webhook endpoint."))));
    return found;
  }

  private static Optional<String> notice(String done) {
    return switch (done) {
      case "saved" -> Optional.of("Saved.");
      case "deleted" -> Optional.of("The endpoint was deleted, with its dead letters.");
      case "replayed" -> Optional.of("Its dead letters are queued again, as first attempts.");
      case "gone" -> Optional.of("That endpoint was no longer there.");
      default -> Optional.empty();
    };
  }

  private static EndpointFields endpointFields(FormFields.Fields fields) {
    var types = EnumSet.noneOf(CloudEventType.class);
    for (var type : CloudEventType.values())
      if (!fields.get(TYPE_FIELD + type.typeName()).isEmpty()) types.add(type);
    return new EndpointFields(
        Optional.of(fields.get("url").strip()),
        Optional.of(fields.get("description").strip()),
        Optional.of(Set.copyOf(types)),
        Optional.of(!fields.get("enabled").isEmpty()));
  }

  private static Form emptyForm() {
    return new Form("/webhooks", "", "", true, choices(Set.of()), true);
  }

  private static Form formOf(WebhookEndpoint endpoint) {
    return new Form(
        "/webhooks/" + endpoint.id(),
        endpoint.url().toString(),
        endpoint.description(),
        endpoint.enabled(),
        choices(endpoint.types()),
        endpoint.types().isEmpty());
  }

  private static Form form(String action, FormFields.Fields fields) {
    var checked = EnumSet.noneOf(CloudEventType.class);
    for (var type : CloudEventType.values())
      if (!fields.get(TYPE_FIELD + type.typeName()).isEmpty()) checked.add(type);
    return new Form(
        action,
        fields.get("url"),
        fields.get("description"),
        !fields.get("enabled").isEmpty(),
        choices(checked),
        checked.isEmpty());
  }

  private static List<TypeChoice> choices(Set<CloudEventType> checked) {
    return Arrays.stream(CloudEventType.values())
        .map(type ->
            new TypeChoice(TYPE_FIELD + type.typeName(), type.typeName(), checked.contains(type)))
        .toList();
  }

  private static List<String> messages(List<Problem> problems) {
    return problems.stream().map(Problem::message).toList();
  }
}
