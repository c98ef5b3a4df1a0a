package dev.tidings.web.dashboard;

import dev.tidings.Attempt;
import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.audience.Subscriber;
import dev.tidings.campaign.Campaign;
import dev.tidings.journeys.Journey;
import dev.tidings.journeys.JourneyJson;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.Step;
import dev.tidings.web.KindStatus;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journey editor, {@code /journeys/{id}/edit}: forms, not a canvas. One form holds the whole
 * journey, its steps as rows with the fields of their type; saving makes it the API's JSON, which the
 * journeys' own reader judges, so each problem it finds is shown beside the field it names, and a
 * journey it takes is saved as the next version (the people inside finish on theirs). Below the form,
 * each send step's email as a chosen subscriber would get it, through the campaign's preview.
 */
final class JourneyEditor {
  private static final Logger log = LoggerFactory.getLogger(JourneyEditor.class);

  /** A hundred steps of a few short fields each fit many times over. */
  static final int MAX_FORM_BYTES = 256 * 1024;

  /** The campaigns a send step offers: the newest, and the one it has chosen. */
  static final int CAMPAIGN_CHOICES = 200;

  private static final Map<String, String> TRIGGERS = labels(
      "signed_up", "They subscribe",
      "did", "They do an activity",
      "email", "They open or click an email",
      "product_news", "A product they wanted is back or cheaper",
      "lapsed", "Their last purchase is long ago",
      "date_of", "A date of theirs comes round");
  private static final Map<String, String> TYPES = labels(
      "", "(none: no step)",
      "wait", "Wait",
      "send", "Send an email",
      "branch", "Branch",
      "split", "A/B split",
      "exit", "Exit");
  private static final Map<String, String> UNTIL = labels(
      "for", "a fixed time",
      "time", "a time of day",
      "best", "their best hour");
  private static final Map<String, String> CONDITIONS = labels(
      "did", "they did an activity",
      "opened", "they opened an email of this journey",
      "clicked", "they clicked an email of this journey",
      "in_segment", "they are in a segment");

  private final JourneyPagesSources sources;
  private final FormGuard guard;

  JourneyEditor(JourneyPagesSources sources, FormGuard guard) {
    this.sources = sources;
    this.guard = guard;
  }

  void register(HttpRouting.Builder routing, Pages pages) {
    routing.get("/journeys/{id}/edit", pages.page(this::editForm));
    routing.post("/journeys/{id}/edit", pages.page(this::save));
  }

  private void editForm(ServerRequest request, ServerResponse response, Visitor visitor) {
    var saved = JourneyPath.latest(request, sources.store());
    if (saved.isEmpty()) {
      JourneyPath.notFound(response, visitor);
      return;
    }
    var form = JourneyForm.of(saved.get().journey()).withSpareRows(JourneyForm.SPARE_ROWS);
    Optional<String> previewStep = request.query().first("step").asOptional();
    String asked = request.query().first("subscriber").asOptional().orElse("").strip();
    Html.send(
        response,
        200,
        page(
            visitor,
            saved.get(),
            new Draft(form, List.of(), List.of(), List.of()),
            previewStep,
            asked));
  }

  private void save(ServerRequest request, ServerResponse response, Visitor visitor) {
    var fields = guard.accept(request, response, visitor, MAX_FORM_BYTES);
    if (fields.isEmpty()) return;
    var saved = JourneyPath.latest(request, sources.store());
    if (saved.isEmpty()) {
      JourneyPath.notFound(response, visitor);
      return;
    }
    long id = saved.get().id();
    JourneyForm form = JourneyForm.of(fields.get());
    if (fields.get().get("intent").equals("rows")) {
      Html.send(
          response,
          200,
          page(
              visitor,
              saved.get(),
              new Draft(
                  form.withSpareRows(3),
                  List.of(),
                  List.of(),
                  List.of("Three more rows below: fill them in, then save.")),
              Optional.empty(),
              ""));
      return;
    }
    JourneyForm.Built built = form.toJson();
    var reading = Attempt.of(() -> {
      Journey journey = JourneyJson.fromJson(built.json());
      List<Problem> gone = missingCampaigns(journey);
      if (!gone.isEmpty()) throw InvalidInputException.of(gone);
      return journey;
    });
    switch (reading) {
      case Attempt.Refused<Journey> refused ->
        Html.send(
            response,
            KindStatus.of(refused.reason().kind()),
            page(
                visitor,
                saved.get(),
                new Draft(form, built.rowOf(), refused.reason().asProblems(), List.of()),
                Optional.empty(),
                ""));
      case Attempt.Done<Journey> done -> {
        var revised = sources.store().revise(id, done.value());
        if (revised.isEmpty()) {
          JourneyPath.notFound(response, visitor);
          return;
        }
        sources.changed().run();
        log.info(
            "journey {} saved as version {} from the dashboard",
            id,
            revised.get().version());
        Html.redirect(response, "/journeys/" + id + "?done=saved");
      }
    }
  }

  /** A send step's campaign that is no longer there, named as the API names it. */
  private List<Problem> missingCampaigns(Journey journey) {
    List<Problem> problems = new ArrayList<>();
    for (int i = 0; i < journey.steps().size(); i++)
      if (journey.steps().get(i) instanceof Step.Send send
          && sources.campaigns().get(send.campaignId()).isEmpty())
        problems.add(Problem.unknown(
            "steps[" + i + "].campaignId", "there is no campaign " + send.campaignId()));
    return problems;
  }

  /**
   * The form as shown: as typed (or as saved), what was wrong with it, the row each step of the
   * judged JSON came from, and a notice.
   */
  record Draft(
      JourneyForm form, List<Integer> rowOf, List<Problem> problems, List<String> notice) {}

  /** A problem as the list at the top shows it: the field it leads to, in the form's words. */
  record Shown(String anchor, String text) {}

  record ArmRow(int index, List<JourneyField> fields) {}

  record StepRowView(
      int index,
      int number,
      List<JourneyField> head,
      List<JourneyField> fields,
      List<String> rowError,
      int armCount,
      List<ArmRow> arms,
      List<String> armsError,
      List<ConditionRowView> conditions,
      List<String> segmentError) {}

  /** One condition of a segment: its kind and its value. */
  record ConditionRowView(List<JourneyField> fields) {}

  /** One send step's email, and when a subscriber was asked for, that subscriber's. */
  record Preview(
      String step,
      long campaignId,
      String campaign,
      String asked,
      boolean shown,
      List<String> problem,
      String frameSrc,
      String fullPreview) {}

  record View(
      String csrf,
      long id,
      String title,
      int version,
      int nextVersion,
      List<String> notice,
      boolean hasProblems,
      String problemCount,
      List<Shown> problems,
      List<JourneyField> about,
      List<JourneyField> trigger,
      List<JourneyField> entry,
      List<ConditionRowView> entryConditions,
      List<String> entrySegmentError,
      List<JourneyField> outcome,
      List<String> stepsError,
      List<String> formError,
      List<String> stepIds,
      int rowCount,
      List<StepRowView> rows,
      boolean hasPreviews,
      List<Preview> previews) {}

  private String page(
      Visitor visitor,
      JourneyStore.Saved saved,
      Draft draft,
      Optional<String> previewStep,
      String asked) {
    return render(
        visitor, saved, draft, campaignChoices(draft.form()), previews(saved, previewStep, asked));
  }

  /**
   * The editor's page: {@code campaigns} the choices of a send step (the first: none chosen), {@code
   * previews} the saved version's send steps.
   */
  static String render(
      Visitor visitor,
      JourneyStore.Saved saved,
      Draft draft,
      List<Option> campaigns,
      List<Preview> previews) {
    Map<String, List<String>> errors = new LinkedHashMap<>();
    List<Shown> shown = new ArrayList<>();
    for (Problem problem : draft.problems()) {
      var place = JourneyFields.of(problem.field(), draft.rowOf());
      String text = JourneyFields.sentence(problem, place, draft.rowOf());
      errors.computeIfAbsent(place.slot(), slot -> new ArrayList<>()).add(text);
      shown.add(new Shown(anchor(place.slot()), text));
    }
    JourneyForm form = draft.form();
    Set<String> ids = new LinkedHashSet<>();
    form.steps().stream()
        .map(JourneyForm.StepRow::id)
        .filter(id -> !id.isBlank())
        .forEach(ids::add);
    List<StepRowView> rows = new ArrayList<>();
    for (int i = 0; i < form.steps().size(); i++)
      rows.add(row(i, form.steps().get(i), campaigns, errors));
    var view = new View(
        visitor.token(),
        saved.id(),
        saved.journey().name(),
        saved.version(),
        saved.version() + 1,
        draft.notice(),
        !shown.isEmpty(),
        shown.size() == 1 ? "one problem" : shown.size() + " problems",
        shown,
        List.of(JourneyField.text("name", "Name", form.name()).grows().errors(errors)),
        triggerFields(form, errors),
        List.of(JourneyField.duration(
                "entry.reentry", "May enter again after", form.reentry(), form.reentryUnit())
            .note("(0: as soon as they are out)")
            .errors(errors)),
        conditions("entry.", form.segment(), 2, errors),
        errors.getOrDefault("entry.segment", List.of()),
        List.of(
            JourneyField.text("goal", "Goal", form.goal())
                .note("(an activity such as purchase; empty: none)")
                .errors(errors),
            JourneyField.number("holdOut", "Held out (%)", form.holdOut())
                .note("(0 to 50)")
                .errors(errors)),
        errors.getOrDefault("steps", List.of()),
        errors.getOrDefault(JourneyFields.FORM, List.of()),
        List.copyOf(ids),
        form.steps().size(),
        rows,
        true,
        previews);
    return Html.page(
        "Edit " + saved.journey().name(),
        Html.Section.JOURNEYS,
        visitor,
        Templates.render("journey-edit", view));
  }

  /** Where a problem's link leads: its field, its row, or the save button for the whole. */
  private static String anchor(String slot) {
    return slot.equals(JourneyFields.FORM) ? "save" : slot;
  }

  private static List<JourneyField> triggerFields(
      JourneyForm form, Map<String, List<String>> errors) {
    return List.of(
        JourneyField.choice(
                "trigger.type",
                "People enter when",
                JourneyField.options(TRIGGERS, form.triggerType()))
            .switches("trigger")
            .grows()
            .errors(errors),
        JourneyField.text("trigger.activity", "Activity", form.activity())
            .note("(add_to_cart, view, purchase…)")
            .when("trigger:did")
            .errors(errors),
        JourneyField.number("trigger.times", "Times", form.times())
            .note("(to one product)")
            .when("trigger:did")
            .errors(errors),
        JourneyField.duration("trigger.within", "Within", form.within(), form.withinUnit())
            .when("trigger:did|product_news")
            .errors(errors),
        JourneyField.choice(
                "trigger.step",
                "Email event",
                JourneyField.options(
                    labels("opened", "opened", "clicked", "clicked"), form.emailStep()))
            .when("trigger:email")
            .errors(errors),
        JourneyField.choice(
                "trigger.news",
                "News",
                JourneyField.options(
                    labels("back_in_stock", "back in stock", "price_dropped", "price dropped"),
                    form.news()))
            .when("trigger:product_news")
            .errors(errors),
        JourneyField.choice(
                "trigger.interest",
                "Of a product they",
                JourneyField.options(
                    labels("viewed", "viewed", "carted", "carted"), form.interest()))
            .when("trigger:product_news")
            .errors(errors),
        JourneyField.duration(
                "trigger.since", "Last purchase at least", form.since(), form.sinceUnit())
            .note("ago")
            .when("trigger:lapsed")
            .errors(errors),
        JourneyField.text("trigger.attribute", "Date attribute", form.attribute())
            .note("(such as birthday)")
            .when("trigger:date_of")
            .errors(errors));
  }

  private static StepRowView row(
      int i, JourneyForm.StepRow row, List<Option> campaigns, Map<String, List<String>> errors) {
    String p = "s" + i + ".";
    List<Option> chosen = campaigns.stream()
        .map(o -> new Option(o.value(), o.label(), o.value().equals(row.campaign())))
        .toList();
    List<JourneyField> head = List.of(
        JourneyField.text(p + "id", "Step " + (i + 1) + " id", row.id()).errors(errors),
        JourneyField.choice(p + "type", "Type", JourneyField.options(TYPES, row.type()))
            .switches("type")
            .errors(errors));
    List<JourneyField> fields = List.of(
        JourneyField.choice(p + "until", "Waits until", JourneyField.options(UNTIL, row.until()))
            .switches("until")
            .when("type:wait"),
        JourneyField.duration(p + "for", "Waits for", row.forAmount(), row.forUnit())
            .when("type:wait until:for")
            .errors(errors),
        JourneyField.time(p + "time", "Time of day", row.time())
            .note("(where they live)")
            .when("type:wait until:time")
            .errors(errors),
        JourneyField.choice(p + "campaign", "Sends the campaign", chosen)
            .when("type:send")
            .grows()
            .errors(errors),
        JourneyField.choice(p + "if", "If", JourneyField.options(CONDITIONS, row.condition()))
            .switches("if")
            .when("type:branch")
            .errors(errors),
        JourneyField.text(p + "activity", "Activity", row.activity())
            .when("type:branch if:did")
            .errors(errors),
        JourneyField.text(p + "next", "Then go to", row.next())
            .note("(a step id; empty: ends)")
            .stepIds()
            .when("type:wait|send")
            .errors(errors),
        JourneyField.text(p + "then", "Then go to", row.then())
            .note("(empty: ends)")
            .stepIds()
            .when("type:branch")
            .errors(errors),
        JourneyField.text(p + "else", "Otherwise go to", row.otherwise())
            .note("(empty: ends)")
            .stepIds()
            .when("type:branch")
            .errors(errors));
    // the arms it has, and one more to add (two for a new split)
    int armCount = Math.min(JourneyForm.MAX_ARMS, Math.max(2, row.arms().size() + 1));
    List<ArmRow> arms = new ArrayList<>();
    for (int a = 0; a < armCount; a++) {
      var arm = a < row.arms().size() ? row.arms().get(a) : new JourneyForm.Arm("", "", "");
      String q = p + "a" + a + ".";
      arms.add(new ArmRow(
          a,
          List.of(
              JourneyField.text(q + "label", "Arm " + (a + 1), arm.label()),
              JourneyField.number(q + "percent", "Share (%)", arm.percent()),
              JourneyField.text(q + "next", "Goes to", arm.next())
                  .note("(empty: ends)")
                  .stepIds())));
    }
    return new StepRowView(
        i,
        i + 1,
        head,
        fields,
        errors.getOrDefault("s" + i, List.of()),
        armCount,
        arms,
        errors.getOrDefault("s" + i + ".arms", List.of()),
        conditions(p, row.segment(), 1, errors),
        errors.getOrDefault("s" + i + ".segment", List.of()));
  }

  /**
   * A segment's condition rows under {@code prefix} ({@code c0.type}, {@code c0.value}...), as the
   * campaign editor writes an audience: the rows it has, and {@code spare} empty ones to add.
   */
  private static List<ConditionRowView> conditions(
      String prefix,
      List<CampaignForm.ConditionRow> rows,
      int spare,
      Map<String, List<String>> errors) {
    int shown = Math.min(CampaignForm.MAX_CONDITIONS, rows.size() + spare);
    List<ConditionRowView> views = new ArrayList<>();
    for (int c = 0; c < shown; c++) {
      var row = c < rows.size() ? rows.get(c) : new CampaignForm.ConditionRow("", "");
      Map<String, String> kinds = new LinkedHashMap<>();
      kinds.put("", "(none)");
      for (var kind : CampaignForm.Kind.values()) kinds.put(kind.wire, kind.label);
      String q = prefix + "c" + c + ".";
      var value = JourneyField.text(q + "value", "Value", row.value()).errors(errors);
      String hint = CampaignForm.Kind.of(row.type()).map(kind -> kind.hint).orElse("");
      views.add(new ConditionRowView(List.of(
          JourneyField.choice(
                  q + "type", "Condition " + (c + 1), JourneyField.options(kinds, row.type()))
              .errors(errors),
          (hint.isEmpty() ? value : value.note("(" + hint + ")")).grows())));
    }
    return views;
  }

  /** The newest campaigns, and any a row has chosen that is older or gone. */
  private List<Option> campaignChoices(JourneyForm form) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("", "(choose a campaign)");
    for (Campaign campaign : sources.campaigns().list(Optional.empty(), CAMPAIGN_CHOICES))
      labels.put(Long.toString(campaign.id()), label(campaign));
    for (JourneyForm.StepRow row : form.steps()) {
      if (row.campaign().isBlank() || labels.containsKey(row.campaign())) continue;
      String label = parse(row.campaign())
          .flatMap(sources.campaigns()::get)
          .map(JourneyEditor::label)
          .orElse("#" + row.campaign() + " (no such campaign)");
      labels.put(row.campaign(), label);
    }
    return JourneyField.options(labels, "");
  }

  private static String label(Campaign campaign) {
    return campaign.definition().name() + " (#" + campaign.id() + ", "
        + campaign.state().name().toLowerCase(Locale.ROOT) + ")";
  }

  private List<Preview> previews(
      JourneyStore.Saved saved, Optional<String> previewStep, String asked) {
    List<Preview> previews = new ArrayList<>();
    for (Step step : saved.journey().steps()) {
      if (!(step instanceof Step.Send send)) continue;
      String campaign = sources
          .campaigns()
          .get(send.campaignId())
          .map(c -> c.definition().name())
          .orElse("campaign " + send.campaignId() + " (no longer there)");
      boolean chosen = previewStep.equals(Optional.of(step.id())) && !asked.isEmpty();
      if (!chosen) {
        previews.add(
            new Preview(step.id(), send.campaignId(), campaign, "", false, List.of(), "", ""));
        continue;
      }
      Optional<Subscriber> subscriber = find(asked);
      previews.add(subscriber
          .map(found -> new Preview(
              step.id(),
              send.campaignId(),
              campaign,
              asked,
              true,
              List.of(),
              "/campaigns/" + send.campaignId() + "/preview/email?subscriber="
                  + Html.encode(found.id()),
              "/campaigns/" + send.campaignId() + "/preview?subscriber=" + Html.encode(found.id())))
          .orElseGet(() -> new Preview(
              step.id(),
              send.campaignId(),
              campaign,
              asked,
              false,
              List.of("No subscriber has the id or email “" + asked + "”."),
              "",
              "")));
    }
    return previews;
  }

  /** A subscriber by email (when it has an {@code @}) or id, as the campaign preview finds one. */
  private Optional<Subscriber> find(String asked) {
    if (asked.length() > 320) return Optional.empty();
    return asked.contains("@")
        ? sources.subscribers().findByEmail(asked)
        : Problems.isId(asked) ? sources.subscribers().get(asked) : Optional.empty();
  }

  private static Optional<Long> parse(String text) {
    try {
      return Optional.of(Long.parseLong(text));
    } catch (NumberFormatException notANumber) {
      return Optional.empty();
    }
  }

  /** Labels by value, in the order given: value, label, value, label… */
  static Map<String, String> labels(String... pairs) {
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i + 1 < pairs.length; i += 2) labels.put(pairs[i], pairs[i + 1]);
    return labels;
  }
}
