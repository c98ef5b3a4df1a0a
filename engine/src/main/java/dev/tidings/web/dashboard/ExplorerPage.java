package dev.tidings.web.dashboard;

import dev.tidings.audience.Subscriber;
import dev.tidings.catalog.Product;
import dev.tidings.opentime.ShownProducts;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Pick a subscriber; see what the recommender would show them now, with the algorithms behind each
 * product, beside the products their last emails showed.
 */
final class ExplorerPage {
  private ExplorerPage() {}

  /** What is known of the picked subscriber. */
  /**
   * @param products the catalogue's products the page names, by id
   * @param sold the products of the subscriber's emails as their market sells them (their cards'
   *     prices), by id; one not sold there is absent
   * @param locale how the subscriber's cards write amounts
   */
  record Picked(
      String id,
      Optional<Subscriber> subscriber,
      Recommendations.Answer recommendations,
      Map<String, Product> products,
      List<ShownProducts.Shown> emails,
      Map<String, Product> sold,
      Locale locale) {
    /** With no markets: every product sold at its own price, in the subscriber's locale. */
    Picked(
        String id,
        Optional<Subscriber> subscriber,
        Recommendations.Answer recommendations,
        Map<String, Product> products,
        List<ShownProducts.Shown> emails) {
      this(
          id,
          subscriber,
          recommendations,
          products,
          emails,
          products,
          subscriber.map(Subscriber::locale).orElse(Locale.ENGLISH));
    }
  }

  /** The page as the {@code explorer} template shows it. */
  record View(
      String current,
      List<Choice> choices,
      boolean offerChips,
      List<Chip> chips,
      List<String> unknown,
      List<PickedView> picked) {}

  record Choice(String id, String label) {}

  record Chip(String query, String label, String id) {}

  record PickedView(
      String name,
      String email,
      String locale,
      List<String> place,
      List<FoundView> found,
      boolean noneYet,
      List<String> failed,
      List<EmailView> emails) {}

  record FoundView(List<ItemView> items) {}

  record ItemView(int rank, String title, List<String> brand, String score, List<String> reasons) {}

  record EmailView(long campaignId, String chosenAt, ProductCards.View productCards) {}

  static String render(Visitor visitor, List<Subscriber> choices, Optional<Picked> picked) {
    var view = new View(
        picked.map(Picked::id).orElse(""),
        choices.stream()
            .map(s -> new Choice(s.id(), s.name().orElse(s.email())))
            .toList(),
        !choices.isEmpty() && picked.isEmpty(),
        choices.subList(0, Math.min(12, choices.size())).stream()
            .map(s -> new Chip(
                URLEncoder.encode(s.id(), StandardCharsets.UTF_8), s.name().orElse(s.id()), s.id()))
            .toList(),
        picked.filter(p -> p.subscriber().isEmpty()).map(Picked::id).stream().toList(),
        picked.filter(p -> p.subscriber().isPresent()).map(ExplorerPage::picked).stream()
            .toList());
    return Html.page(
        "Recommendations", Html.Section.EXPLORER, visitor, Templates.render("explorer", view));
  }

  private static PickedView picked(Picked p) {
    Subscriber s = p.subscriber().orElseThrow();
    List<String> place = s
        .location()
        .map(l -> String.join(
            ", ", Stream.of(l.city(), l.country()).flatMap(Optional::stream).toList()))
        .filter(text -> !text.isEmpty())
        .stream()
        .toList();
    List<FoundView> found = List.of();
    boolean noneYet = false;
    List<String> failed = List.of();
    switch (p.recommendations()) {
      case Recommendations.Found answer -> {
        List<ItemView> items = new ArrayList<>();
        for (var item : answer.items()) {
          var product = Optional.ofNullable(p.products().get(item.id()));
          items.add(new ItemView(
              items.size() + 1,
              product.map(Product::title).orElse(item.id()),
              product.flatMap(Product::brand).stream().toList(),
              String.format(Locale.ROOT, "%.3f", item.score()),
              item.reasons()));
        }
        found = List.of(new FoundView(items));
      }
      case Recommendations.NoneYet none -> noneYet = true;
      case Recommendations.Failed answer -> failed = List.of(answer.why());
    }
    return new PickedView(
        s.name().orElse(s.id()),
        s.email(),
        s.locale().toLanguageTag(),
        place,
        found,
        noneYet,
        failed,
        p.emails().stream()
            .map(email -> new EmailView(
                email.campaignId(),
                Html.time(email.chosenAt()),
                ProductCards.of(
                    email.productIds(),
                    email.productIds().stream()
                        .map(id -> Optional.ofNullable(p.sold().get(id)))
                        .toList(),
                    p.locale())))
            .toList());
  }
}
