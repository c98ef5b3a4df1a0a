package dev.tidings.web.dashboard;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.audience.Follow;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.catalog.Product;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.history.SubscriberHistory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One subscriber: who they are, what they follow, whether they may be mailed (with the forms to
 * suppress them or lift it), their last emails and what they did with each, their latest activity and
 * what the recommender would show them now.
 */
final class SubscriberPage {
  private SubscriberPage() {}

  /** Everything the page shows, read by {@link SubscriberPages}. */
  record Profile(
      Subscriber subscriber,
      Optional<SubscriberService.Dates> dates,
      List<Follow> follows,
      int followsTotal,
      Optional<Suppression> suppression,
      List<SubscriberHistory.Email> emails,
      List<ActivityHistory.PastEvent> events,
      Recommendations.Answer recommendations,
      Map<String, Product> products,
      Optional<String> notice) {}

  record View(
      String csrf,
      String id,
      String path,
      String title,
      List<Fact> facts,
      List<String> notice,
      List<FollowView> follows,
      boolean noFollows,
      List<String> moreFollows,
      List<SuppressedView> suppressed,
      boolean mailable,
      List<ReasonOption> reasons,
      boolean hasEmails,
      List<EmailView> emails,
      boolean hasEvents,
      List<EventView> events,
      boolean hasFound,
      List<RecommendationView> found,
      boolean noneYet,
      List<String> failed) {}

  record Fact(String label, String value) {}

  record FollowView(String type, String target, String since) {}

  record SuppressedView(String reason, String since) {}

  record ReasonOption(String value, String label, boolean selected) {}

  record EmailView(
      String campaignPath,
      String campaign,
      String sentAt,
      String status,
      List<String> did,
      List<ProductView> products,
      boolean notOpened) {}

  record ProductView(String title, String image, boolean known) {}

  record EventView(String type, String item, String at) {}

  record RecommendationView(int rank, String title, String score, List<String> reasons) {}

  static String render(Visitor visitor, Profile profile) {
    Subscriber s = profile.subscriber();
    var products = profile.products();
    List<Fact> facts = new ArrayList<>();
    facts.add(new Fact("Email", s.email()));
    facts.add(new Fact("Name", s.name().orElse("—")));
    facts.add(new Fact("Locale", s.locale().toLanguageTag()));
    facts.add(new Fact("Country", s.location().flatMap(Location::country).orElse("—")));
    facts.add(new Fact("City", s.location().flatMap(Location::city).orElse("—")));
    facts.add(new Fact("Time zone", s.timeZone().getId()));
    facts.add(new Fact("Consent", s.consent().wire()));
    profile.dates().ifPresent(dates -> {
      facts.add(new Fact("Created", Html.time(dates.createdAt())));
      facts.add(new Fact("Last changed", Html.time(dates.updatedAt())));
    });
    List<RecommendationView> found = List.of();
    boolean noneYet = false;
    List<String> failed = List.of();
    switch (profile.recommendations()) {
      case Recommendations.Found answer -> {
        List<RecommendationView> items = new ArrayList<>();
        for (var item : answer.items())
          items.add(new RecommendationView(
              items.size() + 1,
              title(products, item.id()),
              String.format(Locale.ROOT, "%.3f", item.score()),
              item.reasons()));
        found = items;
      }
      case Recommendations.NoneYet none -> noneYet = true;
      case Recommendations.Failed answer -> failed = List.of(answer.why());
    }
    var view = new View(
        visitor.token(),
        s.id(),
        path(s.id()),
        s.name().orElse(s.email()),
        facts,
        profile.notice().stream().toList(),
        profile.follows().stream()
            .map(f -> new FollowView(
                f.target().type().wire(), f.target().id(), Html.time(f.followedAt())))
            .toList(),
        profile.follows().isEmpty(),
        profile.followsTotal() > profile.follows().size()
            ? List.of(Html.count(profile.followsTotal() - profile.follows().size()))
            : List.of(),
        profile.suppression().stream()
            .map(x -> new SuppressedView(x.reason().wire(), Html.time(x.createdAt())))
            .toList(),
        profile.suppression().isEmpty(),
        Arrays.stream(SuppressionReason.values())
            .map(reason ->
                new ReasonOption(reason.wire(), reason.wire(), reason == SuppressionReason.MANUAL))
            .toList(),
        !profile.emails().isEmpty(),
        profile.emails().stream().map(email -> email(email, products)).toList(),
        !profile.events().isEmpty(),
        profile.events().stream()
            .map(event -> new EventView(
                event.type().wire(),
                title(products, event.itemId()),
                Html.time(event.occurredAt())))
            .toList(),
        !found.isEmpty(),
        found,
        noneYet,
        failed);
    return Html.page(
        "Subscriber " + s.id(),
        Html.Section.SUBSCRIBERS,
        visitor,
        Templates.render("subscriber", view));
  }

  private static EmailView email(SubscriberHistory.Email email, Map<String, Product> products) {
    var message = email.message();
    return new EmailView(
        "/campaigns/" + message.campaignId(),
        email.campaignName().orElse("Campaign " + message.campaignId()),
        message.sentAt().map(Html::time).orElse("not yet known"),
        message.status().wire(),
        email.story().stream().map(FunnelStep::wire).toList(),
        email.productIds().stream()
            .map(id -> Optional.ofNullable(products.get(id))
                .map(p -> new ProductView(
                    p.title(), p.imageUrl().map(url -> url.value()).orElse(""), true))
                .orElse(new ProductView(id, "", false)))
            .toList(),
        email.productIds().isEmpty());
  }

  /** The product's title when the catalogue has it, else its id. */
  private static String title(Map<String, Product> products, String id) {
    return Optional.ofNullable(products.get(id)).map(Product::title).orElse(id);
  }

  /** The page of one subscriber. */
  static String path(String subscriberId) {
    return "/subscribers/" + Html.encode(subscriberId);
  }
}
