package dev.tidings.web.dashboard;

import dev.tidings.Attempt;
import dev.tidings.Json;
import dev.tidings.campaign.CampaignState;
import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.Experiment;
import dev.tidings.web.KindStatus;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a person does to a campaign once it is written: send it now, schedule it, take it off the
 * schedule, pause, resume, cancel, or delete a draft. Each goes through a page that says what will
 * happen and to how many people (a GET, safe to open), then a form that does it (a POST with the
 * session's token), through the same {@link dev.tidings.campaign.CampaignService} methods the API calls.
 */
final class CampaignControls {
  /** What can be done, and the words for it. */
  enum Action {
    SEND("send", "Send now", "Send now", false),
    SCHEDULE("schedule", "Schedule", "Schedule", false),
    UNSCHEDULE("unschedule", "Unschedule", "Take off the schedule", false),
    PAUSE("pause", "Pause", "Pause sending", false),
    RESUME("resume", "Resume", "Resume sending", false),
    CANCEL("cancel", "Cancel", "Cancel the campaign", true),
    DELETE("delete", "Delete draft", "Delete the draft", true);

    final String path;
    final String label;
    final String button;
    final boolean danger;

    Action(String path, String label, String button, boolean danger) {
      this.path = path;
      this.label = label;
      this.button = button;
      this.danger = danger;
    }

    static Optional<Action> of(String path) {
      for (Action action : values()) if (action.path.equals(path)) return Optional.of(action);
      return Optional.empty();
    }

    /** What a campaign in this state offers by confirmation (scheduling has its own form). */
    static List<Action> offered(CampaignState state) {
      return switch (state) {
        case DRAFT -> List.of(SEND, DELETE);
        case SCHEDULED -> List.of(SEND, UNSCHEDULE, CANCEL);
        case RUNNING -> List.of(PAUSE, CANCEL);
        case PAUSED -> List.of(RESUME, CANCEL);
        default -> List.of();
      };
    }
  }

  private final CampaignEditorSources sources;
  private final FormGuard guard;
  private final CampaignActions actions;
  private final boolean secureCookies;

  /** @param secureCookies whether the zone cookie a schedule sets is {@code Secure} (https) */
  CampaignControls(
      CampaignEditorSources sources,
      FormGuard guard,
      CampaignActions actions,
      boolean secureCookies) {
    this.sources = sources;
    this.guard = guard;
    this.actions = actions;
    this.secureCookies = secureCookies;
  }

  void register(HttpRouting.Builder routing, Pages pages) {
    routing.get("/campaigns/{id}/confirm", pages.page(this::confirm));
    for (Action action : Action.values())
      routing.post(
          "/campaigns/{id}/" + action.path,
          pages.page((request, response, visitor) -> act(request, response, visitor, action)));
  }

  record ActionLink(String action, String label, boolean danger) {}

  /** The schedule form: its time in the person's zone, and the zone named beside it. */
  record ScheduleForm(long id, String label, String button, String suggestedAt, String zone) {}

  record Controls(
      long id,
      String csrf,
      List<String> notice,
      List<String> startsAt,
      boolean editable,
      List<ActionLink> actions,
      List<ActionLink> last,
      List<ScheduleForm> schedule) {}

  /**
   * The bar of actions on a campaign's page, with what the last one did: what its state allows, each
   * through the route that does it (the editor, the preview, the test send, a confirmation). A draft
   * or a scheduled campaign is checked and sent from here as from the editor's foot.
   */
  String controls(CampaignView view, Optional<String> done, Visitor visitor) {
    var state = view.state();
    long id = view.campaign().id();
    Instant now = sources.clock().instant();
    List<ActionLink> first = new ArrayList<>();
    List<ActionLink> last = new ArrayList<>();
    for (Action action : Action.offered(state)) {
      var link = new ActionLink(action.path, action.label, action.danger);
      // what ends or removes the campaign comes after what checks and sends it
      if (action.danger) last.add(link);
      else first.add(link);
    }
    var scheduledAt = view.campaign().definition().scheduledAt();
    List<ScheduleForm> schedule =
        state.editable() ? List.of(scheduleForm(id, scheduledAt, visitor.zone(), now)) : List.of();
    return Templates.render(
        "campaign-controls",
        new Controls(
            id,
            visitor.token(),
            done.flatMap(CampaignControls::notice).stream().toList(),
            state == CampaignState.SCHEDULED
                ? scheduledAt.map(at -> ScheduleTime.show(at, visitor.zone(), now)).stream()
                    .toList()
                : List.of(),
            state.editable(),
            first,
            last,
            schedule));
  }

  /** The schedule form, set to the campaign's time or the next full hour, in {@code zone}. */
  static ScheduleForm scheduleForm(
      long id, Optional<Instant> scheduledAt, ZoneId zone, Instant now) {
    Instant suggested =
        scheduledAt.orElse(now.plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS));
    return new ScheduleForm(
        id,
        scheduledAt.isPresent() ? "Move to" : "Schedule for",
        scheduledAt.isPresent() ? "Reschedule…" : "Schedule…",
        ScheduleTime.field(suggested, zone),
        ScheduleTime.name(zone));
  }

  private static Optional<String> notice(String done) {
    return Optional.ofNullable(
        switch (done) {
          case "created" ->
            "Saved as a draft. Preview it, send yourself a test, then schedule it or send it now:"
                + " everything is below.";
          case "tested" -> "Test sent. It is marked [Test] and counts in no funnel.";
          case "send" -> "Sending has started.";
          case "schedule" -> "Scheduled: it starts by itself at the time shown.";
          case "unschedule" -> "Taken off the schedule: it is a draft again.";
          case "pause" -> "Paused: emails under way finish, no new ones start.";
          case "resume" -> "Sending again.";
          case "cancel" -> "Cancelled.";
          default -> null;
        });
  }

  record Confirm(
      String csrf,
      long id,
      String name,
      String action,
      String question,
      String headline,
      List<String> details,
      @Nullable String at,
      @Nullable String zone,
      String button,
      boolean danger,
      String back) {}

  private void confirm(ServerRequest request, ServerResponse response, Visitor visitor) {
    var view = CampaignPath.id(request).flatMap(sources.campaigns()::view);
    if (view.isEmpty()) {
      CampaignPath.notFound(response, visitor);
      return;
    }
    String asked = request.query().first("action").asOptional().orElse("");
    Optional<Action> action = Action.of(asked);
    CampaignView campaign = view.get();
    if (action.isEmpty()) {
      refuse(
          response, visitor, campaign, 400, "Unknown action", "No action named '" + asked + "'.");
      return;
    }
    boolean offered = action.get() == Action.SCHEDULE
        ? campaign.state().editable()
        : Action.offered(campaign.state()).contains(action.get());
    if (!offered) {
      refuse(
          response,
          visitor,
          campaign,
          409,
          "Not now",
          "The campaign is " + state(campaign) + ": it cannot "
              + action.get().label.toLowerCase(Locale.ROOT) + ".");
      return;
    }
    Instant now = sources.clock().instant();
    Optional<ScheduleTime.When.At> at = Optional.empty();
    if (action.get() == Action.SCHEDULE) {
      var when = ScheduleTime.read(
          request.query().first("at").asOptional().orElse(""),
          request.query().first("zone").asOptional().orElse(""),
          now);
      switch (when) {
        case ScheduleTime.When.Wrong wrong -> {
          refuse(response, visitor, campaign, 422, "Not scheduled", wrong.problem());
          return;
        }
        case ScheduleTime.When.At scheduled -> at = Optional.of(scheduled);
      }
    }
    var definition = campaign.campaign().definition();
    long audience = sources.campaigns().countAudience(definition.audience());
    String people = Html.count(audience) + (audience == 1 ? " subscriber" : " subscribers");
    List<String> details = new ArrayList<>();
    String question;
    String headline;
    var progress = campaign.progress();
    switch (action.get()) {
      case SEND -> {
        question = "Send “" + definition.name() + "” now?";
        headline = "It goes to " + people + " now.";
        details.add(speed(audience, definition.ratePerSecond()));
        definition
            .experiment()
            .ifPresent(test -> details.add("It tests " + test.variants().size() + " variants: "
                + Html.percent(test.testShare()) + " of them get one of the variants"
                + (test.allocation() == Experiment.Allocation.AB
                    ? ", the rest the winner once it is clear."
                    : ", more of them the better one as results arrive.")));
      }
      case SCHEDULE -> {
        question = "Schedule “" + definition.name() + "”?";
        var when = at.orElseThrow();
        headline = "It starts " + ScheduleTime.show(when.instant(), when.zone(), now)
            + " and goes to " + people + " as counted now.";
        when.note().ifPresent(details::add);
        details.add("Who gets it is read again when it starts: people who join or leave before then"
            + " are counted then.");
        details.add(speed(audience, definition.ratePerSecond()));
      }
      case UNSCHEDULE -> {
        question = "Take “" + definition.name() + "” off the schedule?";
        headline = "It will not start at "
            + definition
                .scheduledAt()
                .map(time -> ScheduleTime.show(time, visitor.zone(), now))
                .orElse("its time")
            + "; it becomes a draft you can edit and schedule again.";
      }
      case PAUSE -> {
        question = "Pause “" + definition.name() + "”?";
        headline = progress
            .map(p -> Html.count(p.sent()) + " of " + Html.count(p.planned())
                + " sent so far; no new email starts until you resume.")
            .orElse("No new email starts until you resume.");
      }
      case RESUME -> {
        question = "Resume “" + definition.name() + "”?";
        headline = progress
            .map(p -> "Sending carries on: " + Html.count(Math.max(0, p.planned() - p.done()))
                + " of " + Html.count(p.planned()) + " still to go.")
            .orElse("Sending carries on.");
      }
      case CANCEL -> {
        question = "Cancel “" + definition.name() + "”?";
        headline = campaign.state() == CampaignState.SCHEDULED
            ? "It will not start: " + people + " will not get it."
            : progress
                .map(p -> Html.count(Math.max(0, p.planned() - p.done())) + " of "
                    + Html.count(p.planned()) + " will not get it (" + Html.count(p.sent())
                    + " sent so far).")
                .orElse("Nothing more is sent.");
        details.add("This cannot be undone.");
      }
      case DELETE -> {
        question = "Delete the draft “" + definition.name() + "”?";
        headline = "The draft is removed for good; nobody was sent it.";
      }
      default -> throw new IllegalStateException();
    }
    long id = campaign.campaign().id();
    Html.send(
        response,
        200,
        Html.page(
            question,
            Html.Section.CAMPAIGNS,
            visitor,
            Templates.render(
                "campaign-confirm",
                new Confirm(
                    visitor.token(),
                    id,
                    definition.name(),
                    action.get().path,
                    question,
                    headline,
                    details,
                    at.map(when -> when.instant().toString()).orElse(null),
                    at.map(when -> when.zone().getId()).orElse(null),
                    action.get().button,
                    action.get().danger,
                    "/campaigns/" + id))));
  }

  private static String speed(long audience, double perSecond) {
    long seconds = (long) Math.ceil(audience / perSecond);
    return "At " + (perSecond == Math.rint(perSecond) ? Long.toString((long) perSecond) : perSecond)
        + " emails a second that takes about " + Html.duration(Duration.ofSeconds(seconds)) + ".";
  }

  private void act(ServerRequest request, ServerResponse response, Visitor visitor, Action action) {
    var view = CampaignPath.id(request).flatMap(sources.campaigns()::view);
    if (view.isEmpty()) {
      CampaignPath.notFound(response, visitor);
      return;
    }
    var form = guard.accept(request, response, visitor, 4096);
    if (form.isEmpty()) return;
    CampaignView campaign = view.get();
    long id = campaign.campaign().id();
    var service = sources.campaigns();
    Runnable work;
    switch (action) {
      case SEND -> work = () -> service.send(id);
      case SCHEDULE -> {
        // the confirmation page wrote the instant; a form made elsewhere is read as strictly
        Instant at;
        try {
          at = Instant.parse(form.get().get("at"));
        } catch (DateTimeParseException e) {
          refuse(response, visitor, campaign, 422, "Not scheduled", "at: not a time.");
          return;
        }
        if (!at.isAfter(sources.clock().instant())) {
          refuse(response, visitor, campaign, 422, "Not scheduled", "at: that time has passed.");
          return;
        }
        var patch = Json.MAPPER.createObjectNode().put("scheduledAt", at.toString());
        work = () -> service.patch(id, patch);
      }
      case UNSCHEDULE ->
        work = () -> service.patch(id, Json.MAPPER.createObjectNode().putNull("scheduledAt"));
      case PAUSE -> work = () -> service.pause(id);
      case RESUME -> work = () -> service.resume(id);
      case CANCEL -> work = () -> service.cancel(id);
      case DELETE -> work = () -> service.delete(id);
      default -> throw new IllegalStateException("no work for " + action);
    }
    // a refusal is answered with its kind's one status, as the API answers it
    if (Attempt.run(work) instanceof Attempt.Refused<Boolean> refused) {
      refuse(
          response,
          visitor,
          campaign,
          KindStatus.of(refused.reason().kind()),
          "Not done",
          refused.reason().detail());
      return;
    }
    if (action == Action.SCHEDULE) {
      // the zone it was typed in becomes the one this person's times are shown in
      ScheduleTime.zone(form.get().get("zone"))
          .ifPresent(zone ->
              response.header(HeaderNames.SET_COOKIE, ViewerZone.cookie(zone, secureCookies)));
    }
    if (action == Action.DELETE) {
      actions.done(CampaignActions.Action.DELETE);
      Html.redirect(response, "/?done=deleted");
      return;
    }
    actions.done(CampaignActions.Action.valueOf(action.name()));
    Html.redirect(response, "/campaigns/" + id + "?done=" + action.path);
  }

  private static String state(CampaignView view) {
    return view.state().name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  private static void refuse(
      ServerResponse response,
      Visitor visitor,
      CampaignView campaign,
      int status,
      String title,
      String problem) {
    long id = campaign.campaign().id();
    CampaignPath.refuse(
        response, visitor, campaign.campaign(), status, title, problem, "/campaigns/" + id);
  }
}
