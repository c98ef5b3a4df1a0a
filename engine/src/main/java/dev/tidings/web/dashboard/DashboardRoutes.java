package dev.tidings.web.dashboard;

import dev.tidings.catalog.Product;
import dev.tidings.web.AuthThrottle;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The dashboard's routes: pages behind the session cookie (a browser without one is sent to the
 * sign-in form), their live streams, and the static script and style. The email-facing routes and the
 * API are not here and keep their own rules.
 */
public final class DashboardRoutes implements RouteGroup {
  private static final int SHOWN_EMAILS = 5;
  private static final int EXPLORER_CHOICES = 100;

  private final DashboardSources sources;
  private final SignIn signIn;
  private final LiveStream live = new LiveStream();
  private final CampaignsPage campaignsPage;
  private final Recommendations recommendations;
  private final byte[] script;
  private final byte[] style;

  /**
   * @param signOuts the sessions signed out, shared by every node on the database
   * @param throttle counts wrong keys at sign-in per address; empty (tests): no limit
   */
  public DashboardRoutes(
      DashboardSources sources, SessionSignOuts signOuts, Optional<AuthThrottle> throttle) {
    this.sources = sources;
    this.signIn = new SignIn(
        sources.apiKey(),
        new SessionCookie(sources.apiKey(), sources.clock(), sources.secureCookies()),
        signOuts,
        throttle,
        sources.clock());
    this.campaignsPage = new CampaignsPage(sources.campaigns(), sources.delivery());
    this.recommendations = new Recommendations(sources.recommender(), sources.clock());
    this.script = resource("/web/dashboard.js");
    this.style = resource("/web/dashboard.css");
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(
        "/static/dashboard.js", (request, response) -> asset(response, "text/javascript", script));
    routing.get("/static/dashboard.css", (request, response) -> asset(response, "text/css", style));
    routing.get("/signin", signIn::form);
    routing.post("/signin", signIn::submit);
    routing.post("/signout", signIn::signOut);
    routing.get(
        "/",
        page((request, response) ->
            Html.send(response, 200, campaignsPage.render(campaignsPage.rows()))));
    routing.get("/campaigns/{id}", page(this::campaign));
    routing.get("/explorer", page(this::explorer));
    routing.get("/system", page(this::system));
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

  private void campaign(ServerRequest request, ServerResponse response) {
    long id = campaignId(request);
    var view = sources.campaigns().view(id);
    var figures = figures(id);
    if (view.isEmpty() || figures.isEmpty()) {
      notFound(response, "No campaign " + id + ".");
      return;
    }
    var campaign = view.get().campaign();
    var preview = sources
        .shown()
        .firstOfCampaign(id)
        .map(email -> new CampaignPage.Preview(
            email,
            subject(campaign, email.messageId()),
            email.productIds().stream().map(sources.catalog()::get).toList()));
    var digests =
        campaign.definition().digest().map(digest -> sources.notifications().digestsSent(id, 8));
    var experiment =
        campaign.definition().experiment().map(plan -> sources.experiments().of(id, plan));
    Html.send(
        response,
        200,
        CampaignPage.render(view.get(), figures.get(), preview, digests, experiment));
  }

  /** The subject as its subscriber got it (the template filled in), else the template. */
  private String subject(dev.tidings.campaign.Campaign campaign, String messageId) {
    return dev.tidings.message.MessageId.parse(messageId)
        .flatMap(message -> sources.emails().preview(campaign, message.subscriberId()))
        .flatMap(dev.tidings.campaign.CampaignEmails.Preview::email)
        .map(dev.tidings.mail.OutgoingEmail::subject)
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

  private void explorer(ServerRequest request, ServerResponse response) {
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
          return new ExplorerPage.Picked(id, subscriber, answer, products, emails);
        });
    Html.send(response, 200, ExplorerPage.render(choices, picked));
  }

  private void system(ServerRequest request, ServerResponse response) {
    var dependencies = SystemPage.probe(sources.dependencies());
    var queues = sources.queues().stream()
        .map(gauge -> {
          Optional<Long> depth;
          try {
            depth = Optional.of(gauge.depth().getAsLong());
          } catch (RuntimeException unavailable) {
            depth = Optional.empty();
          }
          return new SystemPage.Queue(gauge.name(), depth);
        })
        .toList();
    var now = sources.clock().instant();
    var minute = now.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
    Html.send(
        response,
        200,
        SystemPage.render(
            dependencies,
            queues,
            sources.delivery().stepsSince(minute),
            sources.delivery().stepsSince(now.minus(Duration.ofHours(1)))));
  }

  /** A page: signed in, or off to the form. */
  private Handler page(Handler handler) {
    return (request, response) -> {
      if (!signIn.signedIn(request)) {
        signIn.toForm(request, response);
        return;
      }
      handler.handle(request, response);
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

  record NotFound(String what) {}

  private static void notFound(ServerResponse response, String what) {
    Html.send(
        response,
        404,
        Html.page(
            "Not found",
            Html.Section.NONE,
            true,
            Templates.render("notfound", new NotFound(what))));
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
