package dev.tidings.web.dashboard;

import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Subscribers found by id, email or name, a page at a time, each linking to their own page. */
final class SubscribersPage {
  private SubscribersPage() {}

  record View(
      String q,
      boolean searched,
      List<String> problem,
      List<Row> rows,
      boolean hasRows,
      boolean empty,
      List<String> next) {}

  record Row(
      String path,
      String id,
      String email,
      String name,
      String locale,
      String country,
      String consent,
      boolean suppressed) {}

  /**
   * @param suppressed the emails among {@code rows}' that are suppressed
   * @param next the link to the following page, when there may be one
   */
  static String render(
      Visitor visitor,
      String q,
      List<Subscriber> rows,
      Set<String> suppressed,
      Optional<String> next,
      Optional<String> problem) {
    var view = new View(
        q,
        !q.isEmpty(),
        problem.stream().toList(),
        rows.stream()
            .map(s -> new Row(
                SubscriberPage.path(s.id()),
                s.id(),
                s.email(),
                s.name().orElse(""),
                s.locale().toLanguageTag(),
                s.location().flatMap(Location::country).orElse(""),
                s.consent().wire(),
                suppressed.contains(s.email())))
            .toList(),
        !rows.isEmpty(),
        rows.isEmpty() && problem.isEmpty(),
        next.stream().toList());
    return Html.page(
        "Subscribers", Html.Section.SUBSCRIBERS, visitor, Templates.render("subscribers", view));
  }
}
