package dev.tidings.web.opentime;

import dev.tidings.Json;
import dev.tidings.WebUrl;
import dev.tidings.catalog.Product;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import dev.tidings.opentime.ChosenSlots;
import dev.tidings.opentime.Engagement;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.opentime.SlotChooser;
import dev.tidings.opentime.SlotImages;
import dev.tidings.opentime.card.Card;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.InstantSource;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The URLs in emails: {@code /o/{token}/{slot}} a slot's product card,
 * {@code /c/{token}/{slot}} a slot's link, {@code /p/{token}} the open pixel. Mail clients, their proxies and link scanners fetch them, cache what they get and
 * retry what fails, so they never answer an error: a token that is garbled, tampered with, signed by
 * a retired key or names no product gets the neutral answer (the pixel; a redirect to the shop's
 * home, the neutral card) and changes nothing. {@code HEAD} answers the same without recording anything,
 * and so does every request for a test send's email (run {@link MessageId#UNCOUNTED_RUN}): its slots show
 * products, but it is counted in no funnel.
 */
public final class OpenTimeRoutes implements RouteGroup {
  private static final Logger log = LoggerFactory.getLogger(OpenTimeRoutes.class);
  /** A transparent 1x1 GIF. */
  static final byte[] PIXEL =
      Base64.getDecoder().decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7");

  private final TokenCodec tokens;
  private final SlotChooser slots;
  private final SlotImages images;
  private final EngagementRecorder engagements;
  private final URI shopHome;
  private final InstantSource clock;
  private final Counter unredirectable;
  private final Counter unavailable;
  /** The neutral card served while an email's list cannot be had (a server out of reach). */
  private final SlotImages.Shown standIn;

  public OpenTimeRoutes(
      TokenCodec tokens,
      SlotChooser slots,
      SlotImages images,
      EngagementRecorder engagements,
      URI shopHome,
      InstantSource clock,
      MeterRegistry metrics) {
    this.tokens = tokens;
    this.slots = slots;
    this.images = images;
    this.engagements = engagements;
    this.shopHome = shopHome;
    this.clock = clock;
    this.unredirectable = Counter.builder("tidings_opentime_neutral_total")
        .description("Email-facing answers made neutral although the token was valid, by why")
        .tag("reason", "unredirectable_landing_url")
        .register(metrics);
    this.unavailable = Counter.builder("tidings_opentime_neutral_total")
        .description("Email-facing answers made neutral although the token was valid, by why")
        .tag("reason", "list_unavailable")
        .register(metrics);
    this.standIn = new SlotImages.Shown(images.generic(), Optional.empty());
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.route(
        Method.GET, "/o/{token}/{slot}", (request, response) -> image(request, response, true));
    routing.route(
        Method.HEAD, "/o/{token}/{slot}", (request, response) -> image(request, response, false));
    routing.route(Method.GET, "/p/{token}", (request, response) -> pixel(request, response, true));
    routing.route(
        Method.HEAD, "/p/{token}", (request, response) -> pixel(request, response, false));
    routing.route(
        Method.GET, "/c/{token}/{slot}", (request, response) -> click(request, response, true));
    routing.route(
        Method.HEAD, "/c/{token}/{slot}", (request, response) -> click(request, response, false));
    routing.get("/api/v1/messages/{token}/slots", this::keptSlots);
  }

  private void image(ServerRequest request, ServerResponse response, boolean record) {
    Optional<MessageToken> token = token(request);
    Optional<Integer> slot = slot(request, token);
    Card card;
    boolean servedStandIn = false;
    if (token.isPresent() && slot.isPresent()) {
      SlotImages.Shown shown = shownOrNeutral(token.get(), slot.get());
      servedStandIn = shown == standIn;
      card = shown.card();
      if (record && token.get().message().counted())
        engagements.record(
            engagement(request, token.get(), Engagement.Kind.SLOT_IMAGE, slot, shown.productId()));
    } else {
      card = images.generic();
    }
    boolean unchanged = request
        .headers()
        .first(HeaderNames.IF_NONE_MATCH)
        .map(card.etag()::equals)
        .orElse(false);
    response.header(HeaderNames.ETAG, card.etag());
    // the email shows these products for good: proxies may keep the card as long as they like; a
    // stand-in for a list that could not be had now must not be kept, or the reader never sees it
    response.header(
        HeaderNames.CACHE_CONTROL, servedStandIn ? "no-store, private" : "public, max-age=604800");
    if (unchanged) {
      response.status(Status.NOT_MODIFIED_304);
      response.send();
      return;
    }
    response.header(HeaderNames.CONTENT_TYPE, "image/png");
    if (request.prologue().method() == Method.HEAD) {
      response.header(HeaderNames.CONTENT_LENGTH, Integer.toString(card.png().length));
      response.send();
    } else {
      response.send(card.png());
    }
  }

  private void pixel(ServerRequest request, ServerResponse response, boolean record) {
    Optional<MessageToken> token = token(request);
    if (record)
      token
          .filter(valid -> valid.message().counted())
          .ifPresent(valid -> engagements.record(engagement(
              request, valid, Engagement.Kind.OPEN_PIXEL, Optional.empty(), Optional.empty())));
    response.header(HeaderNames.CONTENT_TYPE, "image/gif");
    response.header(HeaderNames.CACHE_CONTROL, "no-store, private");
    response.send(PIXEL);
  }

  private void click(ServerRequest request, ServerResponse response, boolean record) {
    Optional<MessageToken> token = token(request);
    Optional<Integer> slot = slot(request, token);
    URI target = shopHome;
    if (token.isPresent() && slot.isPresent()) {
      // a click before any image (images blocked) chooses the list itself, the same way
      Optional<Product> product = productOrNone(token.get(), slot.get());
      if (product.isPresent()) target = redirectable(product.get()).orElse(shopHome);
      if (record && token.get().message().counted())
        engagements.record(engagement(
            request, token.get(), Engagement.Kind.SLOT_CLICK, slot, product.map(Product::id)));
    }
    response.status(Status.FOUND_302);
    // ASCII only in a header: a path beyond ASCII goes percent-encoded as UTF-8
    response.header(HeaderNames.LOCATION, target.toASCIIString());
    response.header(HeaderNames.CACHE_CONTROL, "no-store, private");
    response.send();
  }

  /**
   * The product's landing URL as a redirect target. A product read without one (it was stored by an
   * earlier version with a URL today's rules refuse; the read logged it) sends the click to the shop's
   * home, counted, never a 500. A {@link WebUrl} parses as a URI with a host by its rules.
   */
  private Optional<URI> redirectable(Product product) {
    Optional<URI> target = product.landingUrl().map(WebUrl::toUri);
    if (target.isEmpty()) unredirectable.increment();
    return target;
  }

  private void keptSlots(ServerRequest request, ServerResponse response) {
    MessageToken token =
        token(request).orElseThrow(() -> ApiProblem.notFound("not a valid message token"));
    ChosenSlots kept = slots
        .kept(token)
        .orElseThrow(() -> ApiProblem.notFound(
            "no products were chosen yet for message " + token.message().text()));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("messageId", token.message().text());
    body.put("subscriberId", token.message().subscriberId());
    body.put("campaignId", token.message().campaignId());
    body.put("slots", token.slots());
    body.put("productIds", List.copyOf(kept.productIds()));
    body.put("chosenAt", kept.chosenAt().toString());
    body.put("how", kept.how().name().toLowerCase(Locale.ROOT));
    response.header(HeaderNames.CONTENT_TYPE, "application/json");
    response.send(Json.MAPPER.writeValueAsBytes(body));
  }

  /**
   * A proxy caches an error for good, so a failure behind a slot (the database down while a product
   * or the kept list is read) is served as the neutral card, logged, and tried again next time.
   */
  private SlotImages.Shown shownOrNeutral(MessageToken token, int slot) {
    try {
      return images.slot(token, slot);
    } catch (RuntimeException e) {
      log.warn(
          "slot {} of message {} served neutral: {}", slot, token.message().text(), e.toString());
      unavailable.increment();
      return standIn;
    }
  }

  private Optional<Product> productOrNone(MessageToken token, int slot) {
    try {
      return images.product(token, slot);
    } catch (RuntimeException e) {
      log.warn(
          "link {} of message {} sent to the shop: {}", slot, token.message().text(), e.toString());
      return Optional.empty();
    }
  }

  private Optional<MessageToken> token(ServerRequest request) {
    String text = request.path().pathParameters().get("token");
    return tokens.decode(text) instanceof TokenCodec.Verdict.Valid valid
        ? Optional.of(valid.token())
        : Optional.empty();
  }

  /** The slot the path names, if it is one of the token's. */
  private static Optional<Integer> slot(ServerRequest request, Optional<MessageToken> token) {
    String text = request.path().pathParameters().get("slot");
    if (token.isEmpty() || text.isEmpty() || text.length() > 2) return Optional.empty();
    for (int i = 0; i < text.length(); i++)
      if (!Character.isDigit(text.charAt(i))) return Optional.empty();
    int slot = Integer.parseInt(text);
    return slot < token.get().slots() ? Optional.of(slot) : Optional.empty();
  }

  private Engagement engagement(
      ServerRequest request,
      MessageToken token,
      Engagement.Kind kind,
      Optional<Integer> slot,
      Optional<String> productId) {
    return new Engagement(
        token.message().text(),
        token.message().subscriberId(),
        token.message().campaignId(),
        kind,
        slot,
        productId,
        clock.instant(),
        Requesters.userAgent(request),
        Requesters.source(request));
  }
}
