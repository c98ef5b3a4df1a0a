package dev.tidings.web.dashboard;

import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.TidingsException;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignState;
import dev.tidings.campaign.CampaignView;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
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

    /** What a campaign in this state offers (scheduling is offered beside the editor's form). */
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

  CampaignControls(CampaignEditorSources sources, FormGuard guard, CampaignActions actions) {
    this.sources = sources;
    this.guard = guard;
    this.actions = actions;
  }

  void register(HttpRouting.Builder routing, Pages pages) {
    routing.get("/campaigns/{id}/confirm", pages.page(this::confirm));
    for (Action action : Action.values())
      routing.post(
          "/campaigns/{id}/" + action.path,
          pages.page((request, response, visitor) -> act(request, response, visitor, action)));
  }

  record ActionLink(String action, String label, boolean danger) {}

  record Controls(long id, List<String> notice, boolean editable, List<ActionLink> actions) {}

  /** The bar of actions on a campaign's page, with what the last one did. */
  String controls(CampaignView view, Optional<String> done) {
    var state = view.state();
    List<ActionLink> links = new ArrayList<>();
    for (Action action : Action.offered(state))
      links.add(new ActionLink(action.path, action.label, action.danger));
    return Templates.render(
        "campaign-controls",
        new Controls(
            view.campaign().id(),
            done.flatMap(CampaignControls::notice).stream().toList(),
            state.editable(),
            links));
  }

  private static Optional<String> notice(String done) {
    return Optional.ofNullable(
        switch (done) {
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
    Optional<Instant> at = Optional.empty();
    if (action.get() == Action.SCHEDULE) {
      var when = scheduledAt(request.query().first("at").asOptional().orElse(""));
      if (when instanceof When.Wrong wrong) {
        refuse(response, visitor, campaign, 422, "Not scheduled", wrong.problem());
        return;
      }
      at = Optional.of(((When.At) when).instant());
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
                + (test.allocation() == dev.tidings.campaign.Experiment.Allocation.AB
                    ? ", the rest the winner once it is clear."
                    : ", more of them the better one as results arrive.")));
      }
      case SCHEDULE -> {
        question = "Schedule “" + definition.name() + "”?";
        headline = "It starts at " + Html.time(at.orElseThrow()) + " and goes to " + people
            + " as counted now.";
        details.add("Who gets it is read again when it starts: people who join or leave before then"
            + " are counted then.");
        details.add(speed(audience, definition.ratePerSecond()));
      }
      case UNSCHEDULE -> {
        question = "Take “" + definition.name() + "” off the schedule?";
        headline = "It will not start at "
            + definition.scheduledAt().map(Html::time).orElse("its time")
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
                    at.map(Instant::toString).orElse(null),
                    action.get().button,
                    action.get().danger,
                    action.get() == Action.SCHEDULE
                        ? "/campaigns/" + id + "/edit"
                        : "/campaigns/" + id))));
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
    try {
      switch (action) {
        case SEND -> service.send(id);
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
          service.patch(id, patch);
        }
        case UNSCHEDULE -> service.patch(id, Json.MAPPER.createObjectNode().putNull("scheduledAt"));
        case PAUSE -> service.pause(id);
        case RESUME -> service.resume(id);
        case CANCEL -> service.cancel(id);
        case DELETE -> {
          service.delete(id);
          actions.done(CampaignActions.Action.DELETE);
          Html.redirect(response, "/?done=deleted");
          return;
        }
      }
    } catch (TidingsException refused) {
      if (refused.kind() == ErrorKind.INTERNAL) throw refused;
      int status = switch (refused.kind()) {
        case NOT_FOUND -> 404;
        case CONFLICT -> 409;
        case INVALID -> 422;
        case UNAVAILABLE -> 503;
        default -> 400;
      };
      refuse(response, visitor, campaign, status, "Not done", refused.detail());
      return;
    }
    actions.done(CampaignActions.Action.valueOf(action.name()));
    Html.redirect(response, "/campaigns/" + id + "?done=" + action.path);
  }

  /** A time the schedule form gave: its {@code datetime-local} in UTC, in the future. */
  sealed interface When {
    record At(Instant instant) implements When {}

    record Wrong(String problem) implements When {}
  }

  When scheduledAt(String typed) {
    Instant at;
    try {
      at = LocalDateTime.parse(typed.trim()).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      try {
        at = Instant.parse(typed.trim());
      } catch (DateTimeParseException notInstant) {
        return new When.Wrong(
            "at: '" + typed + "' is not a date and time such as 2026-12-01T09:00.");
      }
    }
    if (!at.isAfter(sources.clock().instant()))
      return new When.Wrong("at: " + Html.time(at) + " has passed; choose a time ahead.");
    if (at.isAfter(CampaignJson.LATEST_SCHEDULE))
      return new When.Wrong("at: '" + typed + "' is later than a campaign can be scheduled.");
    return new When.At(at);
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
