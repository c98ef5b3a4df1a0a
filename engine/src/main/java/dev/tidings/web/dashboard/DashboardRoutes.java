package dev.tidings.web.dashboard;

import dev.tidings.LogText;
import dev.tidings.StoredText;
import dev.tidings.audience.Subscriber;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import dev.tidings.web.AuthThrottle;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's routes: pages behind the session cookie (a browser without one is sent to the
 * sign-in form), their live streams, and the static script and style. The email-facing routes and the
 * API are not here and keep their own rules.
 */
public final class DashboardRoutes implements RouteGroup {
  private static final Logger log = LoggerFactory.getLogger(DashboardRoutes.class);

  private static final int SHOWN_EMAILS = 5;
  private static final int EXPLORER_CHOICES = 100;
  private static final int SMALL_FORM_BYTES = 4096;

  private final DashboardSources sources;
  private final SignIn signIn;
  private final FormGuard guard;
  private final Optional<CampaignEditor> editor;
  private final Optional<CampaignControls> controls;
  private final Optional<CampaignPreviewPage> previews;
  private final LiveStream live;
  private final CampaignsPage campaignsPage;
  private final Recommendations recommendations;
  private final Optional<SubscriberPages> subscriberPages;
  private final Optional<WebhookPages> webhookPages;
  private final Optional<JourneyPages> journeyPages;
  private final byte[] script;
  private final byte[] style;

  /** A dashboard that only watches: no editor, no Subscribers pages. */
  public DashboardRoutes(
      DashboardSources sources,
      SessionSignOuts signOuts,
      Optional<AuthThrottle> throttle,
      MeterRegistry metrics) {
    this(sources, Optional.empty(), signOuts, throttle, metrics, Optional.empty());
  }

  /**
   * @param editor the campaign editor's services; empty: campaigns are only watched here
   * @param signOuts the sessions signed out, shared by every node on the database
   * @param throttle counts wrong keys at sign-in per address; empty (tests): no limit
   * @param metrics counts the forms refused ({@value FormGuard#REFUSED}) and the campaign actions
   * @param subscribers what the Subscribers pages read and write; empty: no such pages
   */
  public DashboardRoutes(
      DashboardSources sources,
      Optional<CampaignEditorSources> editor,
      SessionSignOuts signOuts,
      Optional<AuthThrottle> throttle,
      MeterRegistry metrics,
      Optional<SubscriberPagesSources> subscribers) {
    this(sources, editor, signOuts, throttle, metrics, subscribers, Optional.empty());
  }

  /** @param webhooks what the outgoing webhooks' pages read and change; empty: no such pages */
  public DashboardRoutes(
      DashboardSources sources,
      Optional<CampaignEditorSources> editor,
      SessionSignOuts signOuts,
      Optional<AuthThrottle> throttle,
      MeterRegistry metrics,
      Optional<SubscriberPagesSources> subscribers,
      Optional<WebhookPagesSources> webhooks) {
    this(sources, editor, signOuts, throttle, metrics, subscribers, webhooks, Optional.empty());
  }

  /** @param journeys what the journeys' pages read and change; empty: no such pages */
  public DashboardRoutes(
      DashboardSources sources,
      Optional<CampaignEditorSources> editor,
      SessionSignOuts signOuts,
      Optional<AuthThrottle> throttle,
      MeterRegistry metrics,
      Optional<SubscriberPagesSources> subscribers,
      Optional<WebhookPagesSources> webhooks,
      Optional<JourneyPagesSources> journeys) {
    this.subscriberPages = subscribers.map(SubscriberPages::new);
    this.webhookPages = webhooks.map(WebhookPages::new);
    this.sources = sources;
    this.guard = new FormGuard(metrics);
    this.live = new LiveStream(metrics);
    this.journeyPages = journeys.map(j -> new JourneyPages(j, guard, live));
    var actions = new CampaignActions(metrics);
    this.editor = editor.map(e -> new CampaignEditor(e, guard, actions));
    this.controls =
        editor.map(e -> new CampaignControls(e, guard, actions, sources.secureCookies()));
    this.previews = editor.map(e -> new CampaignPreviewPage(e, guard, actions));
    this.signIn = new SignIn(
        sources.apiKey(),
        new SessionCookie(sources.apiKey(), sources.clock(), sources.secureCookies()),
        signOuts,
        throttle,
        sources.clock());
    this.campaignsPage = new CampaignsPage(
        sources.campaigns(), sources.delivery(), editor.isPresent(), sources.clock());
    this.recommendations = new Recommendations(sources.recommender(), sources.clock());
    this.script = resource("/web/dashboard.js");
    this.style = resource("/web/dashboard.css");
  }

  @Override
  public void stopping() {
    live.stop();
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(
        "/static/dashboard.js", (request, response) -> asset(response, "text/javascript", script));
    routing.get("/static/dashboard.css", (request, response) -> asset(response, "text/css", style));
    routing.get("/signin", signIn::form);
    routing.post("/signin", signIn::submit);
    routing.post("/signout", (request, response) -> signIn.signOut(request, response, guard));
    routing.get(
        "/",
        page((request, response, visitor) -> Html.send(
            response,
            200,
            campaignsPage.render(
                visitor,
                campaignsPage.rows(),
                request
                    .query()
                    .first("done")
                    .asOptional()
                    .filter("deleted"::equals)
                    .map(done -> "The draft was deleted.")))));
    // before /campaigns/{id}, which would take "new" for an id
    editor.ifPresent(e -> e.register(routing, this::page));
    controls.ifPresent(c -> c.register(routing, this::page));
    previews.ifPresent(p -> p.register(routing, this::page));
    routing.get("/campaigns/{id}", page(this::campaign));
    subscriberPages.ifPresent(pages -> pages.register(routing, this::page, guard));
    webhookPages.ifPresent(pages -> pages.register(routing, this::page, guard));
    journeyPages.ifPresent(pages -> pages.register(routing, this::page, this::stream));
    routing.get("/explorer", page(this::explorer));
    routing.get("/system", page(this::system));
    routing.get("/system/dead-letters/{queue}", page(this::deadLetters));
    routing.post("/system/dead-letters/{queue}/requeue", page(this::requeue));
    routing.post("/system/dead-letters/{queue}/drop", page(this::drop));
    routing.get(
        "/live/campaigns",
        stream((request, response) -> live.serve(response, "campaigns", () -> {
          var rows = campaignsPage.rows();
          return Map.of("texts", rows.texts(), "widths", rows.widths());
        })));
    routing.get("/live/campaigns/{id}", stream((request, response) -> {
      long id = campaignId(request);
      if (sources.campaigns().get(id).isEmpty()) {
        response.status(Status.NOT_FOUND_404).send();
        return;
      }
      live.serve(response, "campaign " + id, () -> figures(id).orElseThrow());
    }));
  }

  private void campaign(ServerRequest request, ServerResponse response, Visitor visitor) {
    long id = campaignId(request);
    var view = sources.campaigns().view(id);
    var figures = figures(id);
    if (view.isEmpty() || figures.isEmpty()) {
      notFound(response, visitor, "No campaign " + id + ".");
      return;
    }
    var campaign = view.get().campaign();
    var preview = sources.shown().firstOfCampaign(id).map(email -> {
      String subscriber =
          MessageId.parse(email.messageId()).map(MessageId::subscriberId).orElse("");
      var sold = sources.prices().of(subscriber, email.productIds());
      return new CampaignPage.Preview(
          email,
          subject(campaign, email.messageId()),
          email.productIds().stream()
              .map(productId -> Optional.ofNullable(sold.products().get(productId)))
              .toList(),
          cardLocale(sold, sources.subscribers().get(subscriber)));
    });
    var digests =
        campaign.definition().digest().map(digest -> sources.notifications().digestsSent(id, 8));
    var experiment =
        campaign.definition().experiment().map(plan -> sources.experiments().of(id, plan));
    Html.send(
        response,
        200,
        CampaignPage.render(
            visitor,
            controls
                .map(c ->
                    c.controls(view.get(), request.query().first("done").asOptional(), visitor))
                .orElse(""),
            view.get(),
            figures.get(),
            preview,
            digests,
            experiment,
            campaign.definition().sendTime().perSubscriber()
                ? Optional.of(SendTimeSection.of(
                    sources.campaigns().plannedByTime(campaign),
                    sources.delivery().sendTimeCohorts(id)))
                : Optional.empty()));
  }

  /** How a subscriber's cards write amounts: as their market does, else as they do. */
  private static Locale cardLocale(SubscriberPrices.AsSold sold, Optional<Subscriber> subscriber) {
    return sold.market()
        .map(Market::locale)
        .or(() -> subscriber.map(Subscriber::locale))
        .orElse(Locale.ENGLISH);
  }

  /** The subject as its subscriber got it (the template filled in), else the template. */
  private String subject(Campaign campaign, String messageId) {
    return MessageId.parse(messageId)
        .flatMap(message -> sources.emails().preview(campaign, message.subscriberId()))
        .flatMap(CampaignEmails.Preview::email)
        .map(OutgoingEmail::subject)
        .orElse(campaign.definition().subject());
  }

  private Optional<CampaignFigures> figures(long id) {
    return sources.campaigns().view(id).map(view -> {
      var stats =
          sources.delivery().campaign(id, sources.clock().instant().minus(Duration.ofMinutes(60)));
      var top = sources.delivery().topClickedProducts(id, CampaignFigures.TOP_PRODUCTS);
      return CampaignFigures.of(view, stats, top, sources.catalog()::get);
    });
  }

  private void explorer(ServerRequest request, ServerResponse response, Visitor visitor) {
    var choices = sources.subscribers().list(Optional.empty(), EXPLORER_CHOICES);
    var picked = request
        .query()
        .first("subscriber")
        .asOptional()
        .map(String::trim)
        .filter(id -> !id.isEmpty())
        .map(id -> {
          var subscriber = sources.subscribers().get(id);
          if (subscriber.isEmpty())
            return new ExplorerPage.Picked(
                id, subscriber, new Recommendations.NoneYet(), Map.of(), List.of());
          var answer = recommendations.of(id);
          var emails = sources.shown().ofSubscriber(id, SHOWN_EMAILS);
          Set<String> ids = new LinkedHashSet<>();
          if (answer instanceof Recommendations.Found found)
            found.items().forEach(item -> ids.add(item.id()));
          emails.forEach(email -> ids.addAll(email.productIds()));
          Map<String, Product> products = new HashMap<>();
          for (String productId : ids)
            sources.catalog().get(productId).ifPresent(p -> products.put(productId, p));
          var sold = sources
              .prices()
              .of(
                  id,
                  emails.stream()
                      .flatMap(email -> email.productIds().stream())
                      .distinct()
                      .toList());
          return new ExplorerPage.Picked(
              id,
              subscriber,
              answer,
              products,
              emails,
              sold.products(),
              cardLocale(sold, subscriber));
        });
    Html.send(response, 200, ExplorerPage.render(visitor, choices, picked));
  }

  private void system(ServerRequest request, ServerResponse response, Visitor visitor) {
    var dependencies = SystemPage.probe(sources.dependencies());
    var work = sources.workQueue();
    var queues = sources.queues().stream()
        .map(name -> new SystemPage.Queue(
            name,
            readable(() -> work.depth(name)),
            readable(() -> work.oldestAge(name)).flatMap(age -> age),
            readable(() ->
                work.deadLetters(name, SystemPage.DEAD_LETTERS_COUNTED + 1).size())))
        .toList();
    var now = sources.clock().instant();
    var minute = now.truncatedTo(ChronoUnit.MINUTES);
    Html.send(
        response,
        200,
        SystemPage.render(
            visitor,
            dependencies,
            queues,
            readable(() -> sources.counting().get()),
            readable(() -> sources.nodes().get()).orElse(List.of()),
            sources.delivery().stepsSince(minute),
            sources.delivery().stepsSince(now.minus(Duration.ofHours(1))),
            webhookPages.map(pages -> pages.systemSection(visitor)).orElse(""),
            request.query().first("done").asOptional().flatMap(DashboardRoutes::systemNotice)));
  }

  private static Optional<String> systemNotice(String done) {
    return switch (done) {
      case "replayed" -> Optional.of("Replayed: the delivery is queued again as a first attempt.");
      case "gone" ->
        Optional.of(
            "That dead letter was no longer there (replayed already, or its endpoint deleted).");
      default -> Optional.empty();
    };
  }

  /** A figure for the page, or empty when its server cannot be read now: the page still shows. */
  private static <T> Optional<T> readable(Supplier<T> read) {
    try {
      return Optional.of(read.get());
    } catch (RuntimeException unavailable) {
      return Optional.empty();
    }
  }

  private void deadLetters(ServerRequest request, ServerResponse response, Visitor visitor) {
    Optional<String> queue = knownQueue(request, response, visitor);
    if (queue.isEmpty()) return;
    var notice = request.query().first("done").asOptional().flatMap(DashboardRoutes::notice);
    Html.send(
        response,
        200,
        DeadLettersPage.render(
            visitor,
            queue.get(),
            deadLettersPath(queue.get()),
            sources.workQueue().deadLetters(queue.get(), DeadLettersPage.SHOWN),
            notice));
  }

  private static Optional<String> notice(String done) {
    return switch (done) {
      case "requeued" -> Optional.of("Requeued: it is a fresh message of the queue again.");
      case "dropped" -> Optional.of("Dropped for good.");
      case "gone" ->
        Optional.of("That dead letter was no longer there (requeued or dropped already).");
      default -> Optional.empty();
    };
  }

  private void requeue(ServerRequest request, ServerResponse response, Visitor visitor) {
    settleDeadLetter(request, response, visitor, true);
  }

  private void drop(ServerRequest request, ServerResponse response, Visitor visitor) {
    settleDeadLetter(request, response, visitor, false);
  }

  private void settleDeadLetter(
      ServerRequest request, ServerResponse response, Visitor visitor, boolean requeue) {
    var form = guard.accept(request, response, visitor, SMALL_FORM_BYTES);
    if (form.isEmpty()) return;
    Optional<String> queue = knownQueue(request, response, visitor);
    if (queue.isEmpty()) return;
    String message = form.get().get("message");
    // a letter's id is the queue's own text: one with a control character (a NUL, a line break) or
    // that the database cannot hold names no letter, and is refused here rather than sent on
    if (message.isBlank()
        || message.length() > 200
        || message.chars().anyMatch(Character::isISOControl)
        || StoredText.problem(message) != null) {
      Html.send(
          response,
          400,
          Html.page(
              "Bad request",
              Html.Section.SYSTEM,
              visitor,
              "<h1>Bad request</h1><p role=\"alert\">The form names no dead letter"
                  + " (<code>message</code>).</p>"));
      return;
    }
    var work = sources.workQueue();
    boolean done = requeue
        ? work.requeueDeadLetter(queue.get(), message)
        : work.dropDeadLetter(queue.get(), message);
    log.info(
        "dead letter {} of queue '{}' {} from the dashboard",
        LogText.of(message),
        queue.get(),
        !done ? "was not there to settle" : requeue ? "requeued" : "dropped");
    response.status(303);
    response.header(
        HeaderNames.LOCATION,
        deadLettersPath(queue.get()) + "?done="
            + (!done ? "gone" : requeue ? "requeued" : "dropped"));
    response.send();
  }

  /** The queue the path names, when it is one of this installation's; otherwise answers 404. */
  private Optional<String> knownQueue(
      ServerRequest request, ServerResponse response, Visitor visitor) {
    String name = request.path().pathParameters().first("queue").orElse("");
    if (sources.queues().contains(name)) return Optional.of(name);
    Html.send(
        response,
        404,
        Html.page(
            "Not found",
            Html.Section.SYSTEM,
            visitor,
            "<h1>Not found</h1><p role=\"alert\">No such work queue.</p>"));
    return Optional.empty();
  }

  private static String deadLettersPath(String queue) {
    return "/system/dead-letters/" + URLEncoder.encode(queue, StandardCharsets.UTF_8);
  }

  /** A page: signed in, or off to the form. */
  private Handler page(Pages.PageHandler handler) {
    return (request, response) -> {
      var visitor = signIn.visitor(request);
      if (visitor.isEmpty()) {
        signIn.toForm(request, response);
        return;
      }
      handler.handle(request, response, visitor.get().inZone(ViewerZone.of(request)));
    };
  }

  /** A stream: signed in, or 401 (an EventSource cannot follow a redirect to a form). */
  private Handler stream(Handler handler) {
    return (request, response) -> {
      if (!signIn.signedIn(request)) {
        response.status(Status.UNAUTHORIZED_401).send();
        return;
      }
      handler.handle(request, response);
    };
  }

  private static long campaignId(ServerRequest request) {
    try {
      return Long.parseLong(request.path().pathParameters().get("id"));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void notFound(ServerResponse response, Visitor visitor, String what) {
    Html.send(
        response,
        404,
        Html.page(
            "Not found",
            Html.Section.NONE,
            visitor,
            Templates.render("notfound", new Html.NotFound(what))));
  }

  private static void asset(ServerResponse response, String type, byte[] bytes) {
    response.header(HeaderNames.CONTENT_TYPE, type + "; charset=UTF-8");
    response.header(HeaderNames.CACHE_CONTROL, "no-cache");
    response.send(bytes);
  }

  private static byte[] resource(String name) {
    try (InputStream in = DashboardRoutes.class.getResourceAsStream(name)) {
      if (in == null)
        throw new IllegalStateException("missing resource " + name + " (a broken build?)");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
