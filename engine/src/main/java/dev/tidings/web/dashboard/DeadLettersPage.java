package dev.tidings.web.dashboard;

import dev.tidings.queue.DeadLetter;
import java.util.List;
import java.util.Optional;

/** One work queue's newest dead letters, each with buttons to requeue or drop it. */
final class DeadLettersPage {
  static final int SHOWN = 100;

  private DeadLettersPage() {}

  record View(
      String csrf,
      String queue,
      String path,
      List<Row> letters,
      boolean empty,
      int shown,
      List<String> notice) {}

  record Row(
      String path, String messageId, String deadAt, int deliveries, String reason, String size) {}

  static String render(
      Visitor visitor,
      String queue,
      String path,
      List<DeadLetter> letters,
      Optional<String> notice) {
    var rows = letters.stream()
        .map(letter -> new Row(
            path,
            letter.messageId(),
            Html.time(letter.deadAt()),
            letter.deliveries(),
            letter.reason(),
            Html.count(letter.body().length) + " B"))
        .toList();
    return Html.page(
        "Dead letters of " + queue,
        Html.Section.SYSTEM,
        visitor,
        Templates.render(
            "dead-letters",
            new View(
                visitor.token(),
                queue,
                path,
                rows,
                rows.isEmpty(),
                SHOWN,
                notice.stream().toList())));
  }
}
