package dev.tidings.web.dashboard;

import dev.tidings.Attempt;
import dev.tidings.EmailAddress;
import dev.tidings.Problem;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.JourneyTemplates;
import dev.tidings.journeys.Step;
import dev.tidings.web.KindStatus;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journeys on the dashboard: the list ({@code /journeys}), a new one from a template ({@code
 * /journeys/new}), one journey's page ({@code /journeys/{id}}) with its moves (activate, pause,
 * drain: guarded forms), the editor, and the live streams of the list's and a journey's figures. They
 * read and change journeys only through what the journeys capability publishes.
 */
final class JourneyPages {
  private static final Logger log = LoggerFactory.getLogger(JourneyPages.class);
  private static final int SMALL_FORM_BYTES = 4096;

  private final JourneyPagesSources sources;
  private final FormGuard guard;
  private final LiveStream live;
  private final JourneysPage list;
  private final JourneyEditor editor;

  JourneyPages(JourneyPagesSources sources, FormGuard guard, LiveStream live) {
    this.sources = sources;
    this.guard = guard;
    this.live = live;
    this.list = new JourneysPage(sources);
    this.editor = new JourneyEditor(sources, guard);
  }

  /** @param streams makes a live stream's handler (signed in, or 401) */
  void register(HttpRouting.Builder routing, Pages pages, Function<Handler, Handler> streams) {
    routing.get("/journeys", pages.page(this::list));
    // before /journeys/{id}, which would take "new" for an id
    routing.get("/journeys/new", pages.page(this::newForm));
    routing.post("/journeys/new", pages.page(this::make));
    routing.get("/journeys/{id}", pages.page(this::journey));
    for (JourneyMove move : JourneyMove.values())
      routing.post(
          "/journeys/{id}/" + move.verb,
          pages.page((request, response, visitor) -> move(request, response, visitor, move)));
    editor.register(routing, pages);
    routing.get("/live/journeys", streams.apply((request, response) -> {
      Optional<Long> after = after(request);
      live.serve(
          response,
          "journeys after " + after.map(String::valueOf).orElse("none"),
          () -> Map.of("texts", list.rows(after).texts()));
    }));
    routing.get("/live/journeys/{id}", streams.apply((request, response) -> {
      Optional<JourneyStore.Saved> shown = shownVersion(request);
      if (shown.isEmpty()) {
        response.status(Status.NOT_FOUND_404).send();
        return;
      }
      var saved = shown.get();
      live.serve(
          response,
          "journey " + saved.id() + " version " + saved.version(),
          () -> Map.of(
              "texts", JourneyFigureTexts.page(sources.figures().of(saved.id(), saved.journey()))));
    }));
  }

  private void list(ServerRequest request, ServerResponse response, Visitor visitor) {
    Optional<Long> after = after(request);
    Html.send(response, 200, list.render(visitor, list.rows(after), after, Optional.empty()));
  }

  /** Where the previous page ended; nothing for what is no journey id. */
  private static Optional<Long> after(ServerRequest request) {
    return request
        .query()
        .first("after")
        .asOptional()
        .filter(text -> text.matches("[1-9][0-9]{0,17}"))
        .map(Long::parseLong);
  }

  private void newForm(ServerRequest request, ServerResponse response, Visitor visitor) {
    var key = request.query().first("template").asOptional().filter(k -> !k.isBlank());
    var template = key.flatMap(JourneyTemplates::get);
    if (key.isPresent() && template.isEmpty()) {
      Html.send(
          response,
          404,
          Html.page(
              "Not found",
              Html.Section.JOURNEYS,
              visitor,
              "<h1>Not found</h1><p>No such journey template. <a href=\"/journeys/new\">All"
                  + " templates</a>.</p>"));
      return;
    }
    Html.send(
        response,
        200,
        JourneyTemplatesPage.render(visitor, template, JourneyTemplatesPage.Sender.EMPTY));
  }

  private void make(ServerRequest request, ServerResponse response, Visitor visitor) {
    var form = guard.accept(request, response, visitor, SMALL_FORM_BYTES);
    if (form.isEmpty()) return;
    var template = JourneyTemplates.get(form.get().get("template"));
    if (template.isEmpty()) {
      Html.send(
          response,
          404,
          JourneyTemplatesPage.render(
              visitor, Optional.empty(), JourneyTemplatesPage.Sender.EMPTY));
      return;
    }
    String email = form.get().get("fromEmail").strip();
    String name = form.get().get("fromName").strip();
    List<String> emailError = new ArrayList<>();
    if (email.isEmpty()) emailError.add("Enter the address the emails are from.");
    else if (!(EmailAddress.parse(email) instanceof EmailAddress.Valid))
      emailError.add("Write the from address as one address, such as news@shop.example.");
    if (!emailError.isEmpty()) {
      Html.send(
          response,
          422,
          JourneyTemplatesPage.render(
              visitor,
              template,
              new JourneyTemplatesPage.Sender(email, name, emailError, List.of())));
      return;
    }
    var making = Attempt.of(() ->
        JourneyTemplates.make(template.get(), sources.drafts(), sources.store(), email, name));
    switch (making) {
      case Attempt.Refused<JourneyStore.Saved> refused ->
        Html.send(
            response,
            KindStatus.of(refused.reason().kind()),
            JourneyTemplatesPage.render(
                visitor,
                template,
                new JourneyTemplatesPage.Sender(
                    email,
                    name,
                    List.of(),
                    refused.reason().asProblems().stream().map(Problem::message).toList())));
      case Attempt.Done<JourneyStore.Saved> made -> {
        log.info(
            "journey {} made from the template '{}' on the dashboard",
            made.value().id(),
            template.get().key());
        Html.redirect(response, "/journeys/" + made.value().id() + "?done=made");
      }
    }
  }

  private void journey(ServerRequest request, ServerResponse response, Visitor visitor) {
    var latest = JourneyPath.latest(request, sources.store());
    var state = latest.flatMap(saved -> sources.store().state(saved.id()));
    if (latest.isEmpty() || state.isEmpty()) {
      JourneyPath.notFound(response, visitor);
      return;
    }
    long id = latest.get().id();
    var shown = shownVersion(request);
    if (shown.isEmpty()) {
      JourneyPath.notFound(response, visitor);
      return;
    }
    List<JourneyStore.Saved> versions = new ArrayList<>();
    int newest = latest.get().version();
    for (int v = newest; v > Math.max(0, newest - JourneyPage.VERSIONS); v--)
      (v == newest ? latest : sources.store().version(id, v)).ifPresent(versions::add);
    var notice =
        request.query().first("done").asOptional().flatMap(done -> notice(done, latest.get()));
    Html.send(
        response,
        200,
        JourneyPage.render(
            visitor,
            new JourneyPage.Shown(
                shown.get(),
                newest,
                state.get(),
                sources.figures().of(id, shown.get().journey()),
                versions,
                notice),
            sources.campaigns()::get));
  }

  /** The version a page or stream asks for ({@code ?version=}), else the latest. */
  private Optional<JourneyStore.Saved> shownVersion(ServerRequest request) {
    var version = request
        .query()
        .first("version")
        .asOptional()
        .filter(text -> text.matches("[1-9][0-9]{0,8}"))
        .map(Integer::parseInt);
    return version.isPresent()
        ? JourneyPath.id(request).flatMap(id -> sources.store().version(id, version.get()))
        : JourneyPath.latest(request, sources.store());
  }

  private static Optional<String> notice(String done, JourneyStore.Saved latest) {
    return switch (done) {
      case "made" ->
        Optional.of("Made as a draft, with its emails as draft campaigns: check them, then"
            + " activate the journey.");
      case "saved" ->
        Optional.of("Saved as version " + latest.version()
            + ". People already inside finish on the version they entered on.");
      case "activated" -> Optional.of("Activated: people enter and move through it.");
      case "paused" -> Optional.of("Paused: nobody enters and nobody moves.");
      case "drained" -> Optional.of("Draining: nobody enters; the people inside go on to the end.");
      default -> Optional.empty();
    };
  }

  private void move(
      ServerRequest request, ServerResponse response, Visitor visitor, JourneyMove move) {
    var form = guard.accept(request, response, visitor, SMALL_FORM_BYTES);
    if (form.isEmpty()) return;
    var latest = JourneyPath.latest(request, sources.store());
    var state = latest.flatMap(saved -> sources.store().state(saved.id()));
    if (latest.isEmpty() || state.isEmpty()) {
      JourneyPath.notFound(response, visitor);
      return;
    }
    long id = latest.get().id();
    if (!move.from.contains(state.get())) {
      refuse(
          response,
          visitor,
          latest.get(),
          409,
          "The journey is " + JourneyWords.state(state.get()) + " now: it cannot " + move.verb
              + ". The page was older than the journey.");
      return;
    }
    if (move == JourneyMove.ACTIVATE) {
      List<String> gone = missingCampaigns(latest.get());
      if (!gone.isEmpty()) {
        refuse(
            response,
            visitor,
            latest.get(),
            422,
            "It was not activated: " + String.join(" ", gone)
                + " Edit the journey to send another.");
        return;
      }
    }
    JourneyState after = sources.store().changeState(id, move.from, move.to).orElse(state.get());
    sources.changed().run();
    if (after != move.to) {
      refuse(
          response,
          visitor,
          latest.get(),
          409,
          "The journey became " + JourneyWords.state(after) + " meanwhile.");
      return;
    }
    log.info("journey {} {} from the dashboard", id, move.done);
    Html.redirect(response, "/journeys/" + id + "?done=" + move.done);
  }

  /** Each send step whose campaign is no longer there, said for a person. */
  private List<String> missingCampaigns(JourneyStore.Saved saved) {
    List<String> gone = new ArrayList<>();
    for (Step step : saved.journey().steps())
      if (step instanceof Step.Send send
          && sources.campaigns().get(send.campaignId()).isEmpty())
        gone.add("The step " + step.id() + " sends campaign " + send.campaignId()
            + ", which is no longer there.");
    return gone;
  }

  private static void refuse(
      ServerResponse response, Visitor visitor, JourneyStore.Saved saved, int status, String why) {
    Html.send(
        response,
        status,
        Html.page(
            "Not done",
            Html.Section.JOURNEYS,
            visitor,
            "<p class=\"crumbs\"><a href=\"/journeys\">Journeys</a> ›</p><h1>Not done</h1>"
                + "<p role=\"alert\" class=\"problem\">" + Html.escape(why) + "</p>"
                + "<p><a href=\"/journeys/" + saved.id() + "\">Back to "
                + Html.escape(saved.journey().name()) + "</a></p>"));
  }
}
