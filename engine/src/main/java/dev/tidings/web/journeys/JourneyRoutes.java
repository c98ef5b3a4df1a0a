package dev.tidings.web.journeys;

import dev.tidings.EmailAddress;
import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.journeys.CampaignDrafts;
import dev.tidings.journeys.Journey;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyJson;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.JourneyTemplates;
import dev.tidings.journeys.ReaderLimits;
import dev.tidings.journeys.ReaderLimitsJson;
import dev.tidings.journeys.ReaderLimitsStore;
import dev.tidings.journeys.Step;
import dev.tidings.journeys.Trigger;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Page;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Journeys: {@code POST /api/v1/journeys} saves a new one as version 1 (a draft); {@code PUT
 * /api/v1/journeys/{id}} saves an edit as the next version (people inside finish on theirs); list,
 * read the latest, read any version as it was saved; {@code activate}, {@code pause} and {@code
 * drain}; and {@code figures}: the people at each step, each step's sends and the lift against the
 * hold-out. {@code /api/v1/reader-limits} reads and sets the caps on every reader's email; {@code
 * /api/v1/journey-templates} lists the ready-made journeys and makes one, its emails as draft
 * campaigns.
 */
public final class JourneyRoutes implements RouteGroup {
  private static final String BASE = "/api/v1/journeys";
  private static final String LIMITS = "/api/v1/reader-limits";
  private static final String TEMPLATES = "/api/v1/journey-templates";

  private final JourneyStore store;
  private final ReaderLimitsStore limits;
  private final JourneyFigures figures;
  private final LongPredicate campaignExists;
  private final Runnable stateChanged;
  private final CampaignDrafts drafts;
  private final long maxBodyBytes;

  /**
   * @param campaignExists whether a campaign of this id exists (a journey's sends name them)
   * @param stateChanged what a change of a journey's state tells this node's runtime
   */
  public JourneyRoutes(
      JourneyStore store,
      ReaderLimitsStore limits,
      JourneyFigures figures,
      LongPredicate campaignExists,
      Runnable stateChanged,
      CampaignDrafts drafts,
      long maxBodyBytes) {
    this.store = store;
    this.limits = limits;
    this.figures = figures;
    this.campaignExists = campaignExists;
    this.stateChanged = stateChanged;
    this.drafts = drafts;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.post(BASE, (request, response) -> {
      var journey = JourneyJson.fromJson(JsonBodies.read(request, maxBodyBytes));
      checkCampaigns(journey);
      var saved = store.create(journey);
      response.header(HeaderNames.LOCATION, BASE + "/" + saved.id());
      JsonBodies.write(response, 201, json(saved, JourneyState.DRAFT));
    });
    routing.get(BASE, (request, response) -> {
      int limit = Requests.limit(request);
      Optional<Long> after = Requests.query(request, "after").map(JourneyRoutes::after);
      JsonBodies.ok(
          response,
          Page.of(
              store.list(after, limit),
              limit,
              listed -> Json.MAPPER
                  .createObjectNode()
                  .put("id", listed.id())
                  .put("name", listed.name())
                  .put("version", listed.latestVersion())
                  .put("state", listed.state().name())
                  .put("createdAt", listed.createdAt().toString())
                  .put("updatedAt", listed.updatedAt().toString()),
              listed -> Long.toString(listed.id())));
    });
    routing.get(BASE + "/{id}", (request, response) -> {
      long id = id(request);
      JsonBodies.ok(response, json(store.latest(id).orElseThrow(() -> missing(id)), state(id)));
    });
    routing.put(BASE + "/{id}", (request, response) -> {
      long id = id(request);
      var journey = JourneyJson.fromJson(JsonBodies.read(request, maxBodyBytes));
      checkCampaigns(journey);
      var saved = store.revise(id, journey).orElseThrow(() -> missing(id));
      stateChanged.run();
      JsonBodies.ok(response, json(saved, state(id)));
    });
    routing.get(BASE + "/{id}/versions/{version}", (request, response) -> {
      long id = id(request);
      String text = Requests.path(request, "version");
      int version = text.matches("[1-9][0-9]{0,8}") ? Integer.parseInt(text) : 0;
      var saved = store
          .version(id, version)
          .orElseThrow(() -> ApiProblem.notFound("journey " + id + " has no version '"
              + (text.length() > 12 ? text.substring(0, 12) + "..." : text) + "'"));
      JsonBodies.ok(response, json(saved, state(id)));
    });
    state(routing, "activate", JourneyState.ACTIVE);
    state(routing, "pause", JourneyState.PAUSED);
    state(routing, "drain", JourneyState.DRAINING);
    routing.get(BASE + "/{id}/figures", (request, response) -> {
      long id = id(request);
      var saved = store.latest(id).orElseThrow(() -> missing(id));
      JsonBodies.ok(response, figures(id, state(id), figures.of(id, saved.journey())));
    });
    routing.get(TEMPLATES, (request, response) -> {
      ObjectNode json = Json.MAPPER.createObjectNode();
      var items = json.putArray("items");
      for (JourneyTemplates.Template template : JourneyTemplates.all()) {
        ObjectNode item = items
            .addObject()
            .put("key", template.key())
            .put("name", template.name())
            .put("description", template.description());
        var emails = item.putArray("emails");
        for (JourneyTemplates.Email email : template.emails())
          emails.addObject().put("step", email.step()).put("subject", email.subject());
      }
      JsonBodies.ok(response, json);
    });
    routing.post(TEMPLATES + "/{key}", (request, response) -> {
      String key = Requests.path(request, "key");
      var template = JourneyTemplates.get(key)
          .orElseThrow(() -> ApiProblem.notFound("there is no journey template '"
              + (key.length() > 40 ? key.substring(0, 40) + "..." : key) + "'"));
      Sender from = sender(JsonBodies.read(request, maxBodyBytes));
      var saved = JourneyTemplates.make(template, drafts, store, from.email(), from.name());
      response.header(HeaderNames.LOCATION, BASE + "/" + saved.id());
      JsonBodies.write(response, 201, json(saved, JourneyState.DRAFT));
    });
    routing.get(LIMITS, (request, response) -> JsonBodies.ok(response, json(limits.get())));
    routing.put(
        LIMITS,
        (request, response) -> JsonBodies.ok(
            response,
            json(limits.put(ReaderLimitsJson.fromJson(JsonBodies.read(request, maxBodyBytes))))));
  }

  /**
   * {@code POST /api/v1/journeys/{id}/<verb>}: moves the journey to {@code to} from a state it may
   * become it from ({@link JourneyState#reachedFrom}); a journey already there stays, answered as done.
   */
  private void state(HttpRouting.Builder routing, String verb, JourneyState to) {
    Set<JourneyState> from = EnumSet.of(to);
    from.addAll(to.reachedFrom());
    routing.post(BASE + "/{id}/" + verb, (request, response) -> {
      long id = id(request);
      JourneyState now = store.state(id).orElseThrow(() -> missing(id));
      if (!from.contains(now))
        throw ApiProblem.conflict("journey " + id + " is " + now + "; only a journey that is "
            + from.stream().map(Enum::name).sorted().toList() + " can " + verb);
      if (to == JourneyState.ACTIVE) {
        Journey journey = store.latest(id).orElseThrow(() -> missing(id)).journey();
        checkCampaigns(journey);
        if (journey.trigger() instanceof Trigger.DateOf)
          throw InvalidInputException.of(List.of(Problem.unknown(
              "trigger.attribute",
              "subscribers keep no date attributes yet, so a journey on a date cannot run")));
      }
      JourneyState after = store.changeState(id, from, to).orElseThrow(() -> missing(id));
      stateChanged.run();
      if (after != to)
        throw ApiProblem.conflict("journey " + id + " became " + after + " meanwhile");
      JsonBodies.ok(response, json(store.latest(id).orElseThrow(() -> missing(id)), after));
    });
  }

  /** Who a template's emails are from. */
  private record Sender(String email, String name) {}

  private static Sender sender(JsonNode body) {
    JsonNode from = body.path("from");
    String email = from.path("email").isString() ? from.path("email").asString() : "";
    String name = from.path("name").isString() ? from.path("name").asString() : "";
    if (!(EmailAddress.parse(email) instanceof EmailAddress.Valid))
      throw InvalidInputException.of(List.of(
          email.isEmpty()
              ? Problem.missing("from.email")
              : Problem.format("from.email", "from.email is not one email address")));
    return new Sender(email, name);
  }

  /** Refuses a journey whose sends name a campaign that does not exist, naming each step. */
  private void checkCampaigns(Journey journey) {
    List<Problem> problems = new ArrayList<>();
    for (int i = 0; i < journey.steps().size(); i++)
      if (journey.steps().get(i) instanceof Step.Send send
          && !campaignExists.test(send.campaignId()))
        problems.add(Problem.unknown(
            "steps[" + i + "].campaignId", "there is no campaign " + send.campaignId()));
    if (!problems.isEmpty()) throw InvalidInputException.of(problems);
  }

  private JourneyState state(long id) {
    return store.state(id).orElseThrow(() -> missing(id));
  }

  private static ObjectNode figures(long id, JourneyState state, JourneyFigures.Figures figures) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("id", id);
    json.put("state", state.name());
    json.put("entries", figures.entries());
    json.put("inside", figures.inside());
    ObjectNode exits = json.putObject("exits");
    figures.exits().forEach(exits::put);
    var steps = json.putArray("steps");
    for (JourneyFigures.StepFigures step : figures.steps()) {
      ObjectNode node = steps.addObject();
      node.put("step", step.step())
          .put("inside", step.inside())
          .put("sent", step.sent())
          .put("heldOut", step.heldOut())
          .put("opened", step.opened())
          .put("clicked", step.clicked())
          .set(
              "emails",
              Json.MAPPER
                  .createObjectNode()
                  .put("planned", step.emails().planned())
                  .put("sent", step.emails().sent())
                  .put("failed", step.emails().failed())
                  .put("unknown", step.emails().unknown())
                  .put("skipped", step.emails().skipped()));
      step.lift().ifPresent(lift -> lift(node.putObject("lift"), lift));
    }
    figures.lift().ifPresent(lift -> {
      ObjectNode node = json.putObject("lift");
      node.put("goal", figures.goal());
      node.put("attributionWindow", JourneyFigures.attribution().toString());
      lift(node, lift);
    });
    return json;
  }

  private static void lift(ObjectNode node, JourneyFigures.Lift lift) {
    node.putObject("sent")
        .put("entrants", lift.sent().trials())
        .put("converted", lift.sent().successes())
        .put("rate", lift.sent().rate());
    node.putObject("heldOut")
        .put("entrants", lift.heldOut().trials())
        .put("converted", lift.heldOut().successes())
        .put("rate", lift.heldOut().rate());
    node.put("difference", lift.difference());
    node.putObject("interval").put("low", lift.low()).put("high", lift.high());
    node.put("pValue", lift.pValue());
    node.put("significant", lift.significant());
  }

  private static ObjectNode json(ReaderLimits limits) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("perDay", limits.perDay());
    json.put("perWeek", limits.perWeek());
    if (limits.quietFrom() != null && limits.quietUntil() != null)
      json.putObject("quietHours")
          .put("from", limits.quietFrom().toString())
          .put("until", limits.quietUntil().toString());
    return json;
  }

  private static long after(String text) {
    if (!text.matches("[1-9][0-9]{0,17}"))
      throw InvalidInputException.of(
          List.of(Problem.format("after", "after is a journey id from the last page's next")));
    return Long.parseLong(text);
  }

  private static ObjectNode json(JourneyStore.Saved saved, JourneyState state) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("id", saved.id());
    json.put("version", saved.version());
    json.put("state", state.name());
    json.put("savedAt", saved.savedAt().toString());
    json.setAll(JourneyJson.toJson(saved.journey()));
    return json;
  }

  private static long id(ServerRequest request) {
    String text = Requests.path(request, "id");
    if (!text.matches("[1-9][0-9]{0,17}"))
      throw ApiProblem.notFound("there is no journey '"
          + (text.length() > 20 ? text.substring(0, 20) + "..." : text) + "'");
    return Long.parseLong(text);
  }

  private static ApiProblem missing(long id) {
    return ApiProblem.notFound("there is no journey " + id);
  }
}
