package dev.tidings.web.dashboard;

import dev.tidings.Problems;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberSearch;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.catalog.Product;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Subscribers pages: a search ({@code /subscribers?q=}) and one subscriber's page
 * ({@code /subscribers/{id}}) with their emails, activity, recommendations and suppression, which an
 * operator may add or lift there (through the same {@code SuppressionService} as the API).
 */
final class SubscriberPages {
  private static final Logger log = LoggerFactory.getLogger(SubscriberPages.class);

  static final int PAGE = 50;
  static final int EMAILS = 10;
  static final int EVENTS = 20;
  static final int FOLLOWS = 50;
  /** Longer than any reason's wire name; a longer field is refused before it is looked at. */
  static final int MAX_REASON_LENGTH = 32;

  private static final int FORM_BYTES = 4096;

  private final SubscriberPagesSources sources;
  private final Recommendations recommendations;

  SubscriberPages(SubscriberPagesSources sources) {
    this.sources = sources;
    this.recommendations = new Recommendations(sources.recommender(), sources.clock());
  }

  void register(
      HttpRouting.Builder routing, Function<Pages.PageHandler, Handler> page, FormGuard guard) {
    routing.get("/subscribers", page.apply(this::search));
    routing.get("/subscribers/{id}", page.apply(this::subscriber));
    routing.post(
        "/subscribers/{id}/suppression/add",
        page.apply((request, response, visitor) -> suppress(request, response, visitor, guard)));
    routing.post(
        "/subscribers/{id}/suppression/lift",
        page.apply((request, response, visitor) -> lift(request, response, visitor, guard)));
  }

  private void search(ServerRequest request, ServerResponse response, Visitor visitor) {
    String q = request.query().first("q").orElse("").strip();
    Optional<String> after = request
        .query()
        .first("after")
        .asOptional()
        .map(String::strip)
        .filter(text -> !text.isEmpty());
    Optional<String> problem = q.isEmpty() ? Optional.empty() : SubscriberSearch.problem(q);
    if (problem.isEmpty() && after.isPresent() && !Problems.isId(after.get()))
      problem = Optional.of("after must be a subscriber id (where the previous page ended)");
    if (problem.isPresent()) {
      Html.send(
          response,
          400,
          SubscribersPage.render(visitor, q, List.of(), Set.of(), Optional.empty(), problem));
      return;
    }
    List<Subscriber> rows = q.isEmpty()
        ? sources.subscribers().list(after, PAGE)
        : sources.subscribers().search(new SubscriberSearch(q), after, PAGE);
    Set<String> suppressed = sources
        .suppressions()
        .suppressedAmong(rows.stream().map(Subscriber::email).toList());
    Optional<String> next = rows.size() == PAGE
        ? Optional.of("/subscribers?"
            + (q.isEmpty() ? "" : "q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + "&")
            + "after=" + URLEncoder.encode(rows.getLast().id(), StandardCharsets.UTF_8))
        : Optional.empty();
    Html.send(
        response,
        200,
        SubscribersPage.render(visitor, q, rows, suppressed, next, Optional.empty()));
  }

  private void subscriber(ServerRequest request, ServerResponse response, Visitor visitor) {
    var found = known(request, response, visitor);
    if (found.isEmpty()) return;
    Subscriber subscriber = found.get();
    String id = subscriber.id();
    var follows = sources.follows().followsOf(id);
    var emails = sources.history().emails(id, EMAILS);
    var events = sources.history().activity(id, EVENTS);
    var answer = recommendations.of(id);
    Set<String> productIds = new LinkedHashSet<>();
    emails.forEach(email -> productIds.addAll(email.productIds()));
    events.forEach(event -> productIds.add(event.itemId()));
    if (answer instanceof Recommendations.Found listed)
      listed.items().forEach(item -> productIds.add(item.id()));
    Map<String, Product> products = new HashMap<>();
    for (String productId : productIds)
      sources.catalog().get(productId).ifPresent(product -> products.put(productId, product));
    var notice = request.query().first("done").asOptional().flatMap(SubscriberPages::notice);
    Html.send(
        response,
        200,
        SubscriberPage.render(
            visitor,
            new SubscriberPage.Profile(
                subscriber,
                sources.subscribers().dates(id),
                follows.subList(0, Math.min(FOLLOWS, follows.size())),
                follows.size(),
                sources.suppressions().get(subscriber.email()),
                emails,
                events,
                answer,
                products,
                notice)));
  }

  private static Optional<String> notice(String done) {
    return switch (done) {
      case "added" -> Optional.of("Suppressed: no email will be sent to this address.");
      case "already" ->
        Optional.of("This address was suppressed already; its first suppression is kept.");
      case "lifted" -> Optional.of("Suppression lifted: this address may be mailed again.");
      case "gone" -> Optional.of("This address was not suppressed (lifted already).");
      default -> Optional.empty();
    };
  }

  private void suppress(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    var form = guard.accept(request, response, visitor, FORM_BYTES);
    if (form.isEmpty()) return;
    var subscriber = known(request, response, visitor);
    if (subscriber.isEmpty()) return;
    String given = form.get().get("reason");
    var reason = given.length() > MAX_REASON_LENGTH
        ? Optional.<SuppressionReason>empty()
        : SuppressionReason.ofWire(given);
    if (reason.isEmpty()) {
      refuse(
          response,
          visitor,
          subscriber.get().id(),
          "The reason (<code>reason</code>) must be one"
              + " of manual, bounce, complaint or unsubscribe.");
      return;
    }
    var added = sources
        .suppressions()
        .add(new Suppression(
            subscriber.get().email(), reason.get(), sources.clock().instant()));
    if (added.isNew())
      sources.changes().changed(SuppressionChanges.Source.DASHBOARD, SuppressionChanges.Action.ADD);
    log.info(
        "subscriber {} suppressed from the dashboard ({}){}",
        subscriber.get().id(),
        reason.get().wire(),
        added.isNew() ? "" : ", as it was already");
    redirect(response, subscriber.get().id(), added.isNew() ? "added" : "already");
  }

  private void lift(
      ServerRequest request, ServerResponse response, Visitor visitor, FormGuard guard) {
    var form = guard.accept(request, response, visitor, FORM_BYTES);
    if (form.isEmpty()) return;
    var subscriber = known(request, response, visitor);
    if (subscriber.isEmpty()) return;
    boolean lifted = sources.suppressions().unsuppress(subscriber.get().email());
    if (lifted)
      sources
          .changes()
          .changed(SuppressionChanges.Source.DASHBOARD, SuppressionChanges.Action.LIFT);
    log.info(
        "subscriber {}'s suppression {} from the dashboard",
        subscriber.get().id(),
        lifted ? "lifted" : "was not there to lift");
    redirect(response, subscriber.get().id(), lifted ? "lifted" : "gone");
  }

  private static void redirect(ServerResponse response, String subscriberId, String done) {
    response.status(303);
    response.header(HeaderNames.LOCATION, SubscriberPage.path(subscriberId) + "?done=" + done);
    response.send();
  }

  /** The subscriber the path names; otherwise answers 404 (an id no subscriber can have, too). */
  private Optional<Subscriber> known(
      ServerRequest request, ServerResponse response, Visitor visitor) {
    String id = request.path().pathParameters().first("id").orElse("");
    Optional<Subscriber> subscriber =
        Problems.isId(id) ? sources.subscribers().get(id) : Optional.empty();
    if (subscriber.isEmpty())
      Html.send(
          response,
          404,
          Html.page(
              "Not found",
              Html.Section.SUBSCRIBERS,
              visitor,
              Templates.render("notfound-subscriber", new NotFound(id))));
    return subscriber;
  }

  record NotFound(String id) {}

  private static void refuse(
      ServerResponse response, Visitor visitor, String subscriberId, String whyHtml) {
    Html.send(
        response,
        400,
        Html.page(
            "Bad request",
            Html.Section.SUBSCRIBERS,
            visitor,
            "<h1>Bad request</h1><p role=\"alert\" class=\"problem\">" + whyHtml
                + "</p><p><a href=\"" + Html.escape(SubscriberPage.path(subscriberId))
                + "\">Back to the subscriber</a></p>"));
  }
}
