package dev.tidings.web.dashboard;

import dev.tidings.audience.Subscriber;
import dev.tidings.catalog.Product;
import dev.tidings.opentime.ShownProducts;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Pick a subscriber; see what the recommender would show them now, with the algorithms behind each
 * product, beside the products their last emails showed.
 */
final class ExplorerPage {
  private ExplorerPage() {}

  /** What is known of the picked subscriber. */
  record Picked(
      String id,
      Optional<Subscriber> subscriber,
      Recommendations.Answer recommendations,
      Map<String, Product> products,
      List<ShownProducts.Shown> emails) {}

  static String render(List<Subscriber> choices, Optional<Picked> picked) {
    var body = new StringBuilder("<h1>Recommendations explorer</h1>");
    String current = picked.map(Picked::id).orElse("");
    body.append(
            "<form method=\"get\" action=\"/explorer\" class=\"pick\"><label for=\"subscriber\">Subscriber</label>"
                + "<input id=\"subscriber\" name=\"subscriber\" list=\"subscribers\" required autocomplete=\"off\" value=\"")
        .append(Html.escape(current))
        .append("\" placeholder=\"subscriber id\"><datalist id=\"subscribers\">");
    for (Subscriber s : choices) {
      body.append("<option value=\"")
          .append(Html.escape(s.id()))
          .append("\">")
          .append(Html.escape(s.name().orElse(s.email())))
          .append("</option>");
    }
    body.append("</datalist><button type=\"submit\">Show</button></form>");
    if (!choices.isEmpty() && picked.isEmpty()) {
      body.append("<p>Or pick one of the first subscribers:</p><ul class=\"chips\">");
      for (Subscriber s : choices.subList(0, Math.min(12, choices.size()))) {
        String id = Html.escape(s.id());
        body.append("<li><a href=\"/explorer?subscriber=")
            .append(Html.escape(
                java.net.URLEncoder.encode(s.id(), java.nio.charset.StandardCharsets.UTF_8)))
            .append("\">")
            .append(Html.escape(s.name().orElse(s.id())))
            .append(" <span class=\"muted\">")
            .append(id)
            .append("</span></a></li>");
      }
      body.append("</ul>");
    }
    if (picked.isEmpty())
      return Html.page("Recommendations", Html.Section.EXPLORER, true, body.toString());
    Picked p = picked.get();
    if (p.subscriber().isEmpty()) {
      body.append("<p role=\"alert\" class=\"problem\">No subscriber with id <code>")
          .append(Html.escape(p.id()))
          .append("</code>.</p>");
      return Html.page("Recommendations", Html.Section.EXPLORER, true, body.toString());
    }
    Subscriber s = p.subscriber().get();
    body.append("<p class=\"who\"><strong>")
        .append(Html.escape(s.name().orElse(s.id())))
        .append("</strong> <span class=\"muted\">")
        .append(Html.escape(s.email()))
        .append(" · ")
        .append(Html.escape(s.locale().toLanguageTag()))
        .append(s.location()
            .map(l -> String.join(
                ", ",
                java.util.stream.Stream.of(l.city(), l.country())
                    .flatMap(Optional::stream)
                    .toList()))
            .filter(place -> !place.isEmpty())
            .map(place -> " · " + Html.escape(place))
            .orElse(""))
        .append("</span></p><div class=\"grid\">");

    body.append(
        "<section aria-labelledby=\"recs\" class=\"card\"><h2 id=\"recs\">Recommended now</h2>");
    switch (p.recommendations()) {
      case Recommendations.Found found -> {
        body.append(
            "<table><thead><tr><th scope=\"col\">#</th><th scope=\"col\">Product</th>"
                + "<th scope=\"col\" class=\"num\">Score</th><th scope=\"col\">Put there by</th></tr></thead><tbody>");
        int rank = 1;
        for (var item : found.items()) {
          var product = Optional.ofNullable(p.products().get(item.id()));
          body.append("<tr><td>")
              .append(rank++)
              .append("</td><td>")
              .append(Html.escape(product.map(Product::title).orElse(item.id())))
              .append(product
                  .flatMap(Product::brand)
                  .map(b -> " <span class=\"muted\">" + Html.escape(b) + "</span>")
                  .orElse(""))
              .append("</td><td class=\"num\">")
              .append(String.format(Locale.ROOT, "%.3f", item.score()))
              .append("</td><td>");
          for (String reason : item.reasons())
            body.append("<span class=\"tag\">").append(Html.escape(reason)).append("</span> ");
          body.append("</td></tr>");
        }
        body.append("</tbody></table>");
      }
      case Recommendations.NoneYet none ->
        body.append("<p class=\"empty\">No recommendations yet for this subscriber.</p>");
      case Recommendations.Failed failed ->
        body.append("<p role=\"alert\" class=\"problem\">Recommendations are not available: ")
            .append(Html.escape(failed.why()))
            .append("</p>");
    }
    body.append("</section>");

    body.append(
        "<section aria-labelledby=\"shown\" class=\"card\"><h2 id=\"shown\">What their emails showed</h2>");
    if (p.emails().isEmpty()) {
      body.append("<p class=\"empty\">None of their emails has been opened yet.</p>");
    }
    for (var email : p.emails()) {
      body.append("<h3><a href=\"/campaigns/")
          .append(email.campaignId())
          .append("\">Campaign ")
          .append(email.campaignId())
          .append("</a> <span class=\"muted\">chosen ")
          .append(Html.time(email.chosenAt()))
          .append("</span></h3>");
      body.append(ProductCards.render(
          email.productIds(),
          email.productIds().stream()
              .map(id -> Optional.ofNullable(p.products().get(id)))
              .toList()));
    }
    body.append("</section></div>");
    return Html.page("Recommendations", Html.Section.EXPLORER, true, body.toString());
  }
}
