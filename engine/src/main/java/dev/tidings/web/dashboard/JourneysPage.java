package dev.tidings.web.dashboard;

import dev.tidings.journeys.JourneyStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The journeys, {@value #PAGE} a page, newest first: each with its state and its figures (entries,
 * people inside now, people sent an email, people out by the goal, and the lift against the hold-out),
 * a table rendered on the server whose cells the live stream keeps current.
 */
final class JourneysPage {
  static final int PAGE = 20;

  private final JourneyPagesSources sources;

  JourneysPage(JourneyPagesSources sources) {
    this.sources = sources;
  }

  /** One page of journeys, and every live value of its rows by {@code data-k}. */
  record Rows(List<JourneyStore.Listed> journeys, Map<String, String> texts) {}

  Rows rows(Optional<Long> after) {
    var journeys = sources.store().list(after, PAGE);
    Map<String, String> texts = new LinkedHashMap<>();
    for (JourneyStore.Listed listed : journeys) {
      String p = key(listed.id());
      texts.put(p + "state", JourneyWords.state(listed.state()));
      // a journey deleted between the list and this read has no figures: its row says so
      sources
          .store()
          .latest(listed.id())
          .ifPresent(saved -> texts.putAll(
              JourneyFigureTexts.row(p, sources.figures().of(listed.id(), saved.journey()))));
    }
    return new Rows(journeys, texts);
  }

  static String key(long id) {
    return "j" + id + ".";
  }

  record Row(
      long id,
      String key,
      String name,
      int version,
      String state,
      String entries,
      String inside,
      String sent,
      String goal,
      String lift) {}

  record View(boolean any, List<Row> rows, List<String> notice, List<String> next, String live) {}

  String render(Visitor visitor, Rows rows, Optional<Long> after, Optional<String> notice) {
    List<Row> shown = rows.journeys().stream()
        .map(listed -> {
          String p = key(listed.id());
          return new Row(
              listed.id(),
              p,
              listed.name(),
              listed.latestVersion(),
              rows.texts().getOrDefault(p + "state", ""),
              rows.texts().getOrDefault(p + "entries", "–"),
              rows.texts().getOrDefault(p + "inside", "–"),
              rows.texts().getOrDefault(p + "sent", "–"),
              rows.texts().getOrDefault(p + "goal", "–"),
              rows.texts().getOrDefault(p + "lift", "–"));
        })
        .toList();
    List<String> next = rows.journeys().size() == PAGE
        ? List.of("/journeys?after=" + rows.journeys().getLast().id())
        : List.of();
    return Html.page(
        "Journeys",
        Html.Section.JOURNEYS,
        visitor,
        Templates.render(
            "journeys",
            new View(
                !shown.isEmpty(),
                shown,
                notice.stream().toList(),
                next,
                "/live/journeys" + after.map(id -> "?after=" + id).orElse(""))));
  }
}
