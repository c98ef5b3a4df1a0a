package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.InvalidInputException;
import dev.tidings.journeys.EntryRules;
import dev.tidings.journeys.Journey;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyJson;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.JourneyTemplates;
import dev.tidings.journeys.Step;
import dev.tidings.journeys.StepSender;
import dev.tidings.journeys.Trigger;
import dev.tidings.optimize.stats.Proportion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * The journeys' pages from their templates: the list with its live cells, a journey drawn as its
 * steps with the people at each and each send's funnel, the moves its state allows as guarded forms,
 * the lift, and the editor, whose every problem shows beside the field it names, in the form's rows.
 * User text is escaped everywhere (the fixtures carry markup). The drawn journey and the editor are also
 * written to {@code target/journey-pages} for a look in a browser.
 */
class JourneyPagesTest {
  private static final Visitor VISITOR = Visitor.signedIn("test-token");
  private static final Instant SAVED = Instant.parse("2026-11-26T10:00:00Z");

  /** A split whose arms go different ways, a branch, sends and an exit; listed out of order. */
  private static final Journey SPLIT = new Journey(
      "Cart <b>bold</b>",
      new Trigger.Did("add_to_cart", 1, Duration.ofHours(1)),
      new EntryRules(Duration.ofDays(7), null),
      List.of(
          new Step.Split(
              "split",
              List.of(
                  new Step.Split.Arm("<i>A</i>", 50, "reminder"),
                  new Step.Split.Arm("B", 50, "bought"))),
          new Step.Send("reminder", 11, "bought"),
          new Step.Exit("done"),
          new Step.Branch("bought", new Step.Condition.Did("purchase"), "done", "last-call"),
          new Step.Send("last-call", 12, null)),
      "purchase",
      0.1);

  @Test
  void the_list_shows_each_journey_with_its_state_and_live_figures_and_pages_on() {
    var rows = new JourneysPage.Rows(
        List.of(
            new JourneyStore.Listed(7, 3, "Spring <sale>", JourneyState.ACTIVE, SAVED, SAVED),
            new JourneyStore.Listed(5, 1, "Welcome", JourneyState.DRAFT, SAVED, SAVED)),
        Map.of(
            "j7.state", "active",
            "j7.entries", "1,204",
            "j7.inside", "31",
            "j7.sent", "990",
            "j7.goal", "120",
            "j7.lift", "12.1% sent vs 8.0% held out · significant",
            "j5.state", "draft",
            "j5.lift", "no goal"));
    Document list = Jsoup.parse(
        new JourneysPage(null).render(VISITOR, rows, Optional.empty(), Optional.empty()));
    assertThat(list.outerHtml()).doesNotContain("<sale>");
    assertThat(list.select("nav a[aria-current=page]").text()).isEqualTo("Journeys");
    assertThat(list.select("a.button[href=/journeys/new]").text()).isEqualTo("New journey");
    assertThat(list.select("[data-live]").attr("data-live")).isEqualTo("/live/journeys");
    assertThat(list.select("table.journeys tbody tr")).hasSize(2);
    assertThat(list.select("a[href=/journeys/7]").text()).isEqualTo("Spring <sale>");
    assertThat(list.select("[data-k=j7.state]").text()).isEqualTo("active");
    assertThat(list.select("[data-k=j7.inside]").text()).isEqualTo("31");
    assertThat(list.select("[data-k=j7.goal]").text()).isEqualTo("120");
    assertThat(list.select("[data-k=j7.lift]").text()).contains("significant");
    assertThat(list.select("[data-k=j5.lift]").text()).isEqualTo("no goal");
    assertThat(list.select("a[rel=next]")).as("fewer than a page: no next").isEmpty();

    List<JourneyStore.Listed> full = new ArrayList<>();
    for (long id = 40; id > 40 - JourneysPage.PAGE; id--)
      full.add(new JourneyStore.Listed(id, 1, "J" + id, JourneyState.DRAFT, SAVED, SAVED));
    Document first = Jsoup.parse(new JourneysPage(null)
        .render(
            VISITOR, new JourneysPage.Rows(full, Map.of()), Optional.of(41L), Optional.empty()));
    assertThat(first.select("a[rel=next]").attr("href"))
        .isEqualTo("/journeys?after=" + (40 - JourneysPage.PAGE + 1));
    assertThat(first.select("[data-live]").attr("data-live")).isEqualTo("/live/journeys?after=41");

    Document none = Jsoup.parse(new JourneysPage(null)
        .render(
            VISITOR,
            new JourneysPage.Rows(List.of(), Map.of()),
            Optional.empty(),
            Optional.empty()));
    assertThat(none.select("main .empty").text()).startsWith("No journey yet");
  }

  /** A journey whose entry and whose branch ask for segments. */
  private static final String SEGMENTED = """
      {"name": "Segmented", "trigger": {"type": "signed_up"},
       "entry": {"reentryAfter": "P1D", "segment": {"type": "segment", "conditions": [
         {"type": "field", "field": "country", "values": ["GB", "IE"]},
         {"type": "openedWithin", "days": 30}]}},
       "steps": [
         {"id": "fans", "type": "branch",
          "if": {"type": "in_segment", "segment": {"type": "segment", "conditions": [
            {"type": "follows", "targetType": "brand", "targetId": "velin"}]}},
          "then": "out", "else": null},
         {"id": "out", "type": "exit"}]}""";

  @Test
  void a_segments_condition_that_is_wrong_is_shown_beside_its_row() throws Exception {
    Journey segmented = JourneyJson.fromJson(dev.tidings.Json.MAPPER.readTree(SEGMENTED));
    var saved = JourneyForm.of(segmented);
    var steps = new ArrayList<>(saved.steps());
    var fans = steps.get(0);
    steps.set(
        0,
        new JourneyForm.StepRow(
            fans.id(),
            fans.type(),
            fans.until(),
            fans.forAmount(),
            fans.forUnit(),
            fans.time(),
            fans.campaign(),
            fans.next(),
            fans.condition(),
            fans.activity(),
            List.of(new CampaignForm.ConditionRow("openedWithin", "soon")),
            fans.then(),
            fans.otherwise(),
            fans.arms()));
    var form = new JourneyForm(
        saved.name(),
        saved.triggerType(),
        saved.activity(),
        saved.times(),
        saved.within(),
        saved.withinUnit(),
        saved.emailStep(),
        saved.news(),
        saved.interest(),
        saved.since(),
        saved.sinceUnit(),
        saved.attribute(),
        saved.reentry(),
        saved.reentryUnit(),
        List.of(
            new CampaignForm.ConditionRow("country", "GB"),
            new CampaignForm.ConditionRow("near", "north")),
        saved.goal(),
        saved.holdOut(),
        steps);
    Document editor = editor(form);
    assertThat(editor.getElementById("entry.c1.value").attr("aria-invalid")).isEqualTo("true");
    assertThat(editor.getElementById("entry.c0.value").attr("aria-invalid")).isEmpty();
    assertThat(error(editor, "entry.c1.value"))
        .containsIgnoringCase("condition 2 of the entry segment");
    assertThat(editor.getElementById("s0.c0.value").attr("aria-invalid")).isEqualTo("true");
    assertThat(error(editor, "s0.c0.value"))
        .containsIgnoringCase("condition 1 of the segment of step 1");
    assertThat(editor.select("select[id=entry.c0.type] option[selected]").val())
        .isEqualTo("country");
    assertThat(editor.select("select[id=entry.c2.type] option[selected]").val())
        .as("a spare row to add one")
        .isEmpty();
  }

  @Test
  void the_lists_lift_line_says_when_there_is_nothing_to_compare() {
    Map<String, String> lines = new LinkedHashMap<>();
    for (var sides : List.of(
        List.of(Proportion.of(0, 0), Proportion.of(0, 0)),
        List.of(Proportion.of(1, 4), Proportion.of(0, 0)),
        List.of(Proportion.of(10, 40), Proportion.of(1, 10))))
      lines.put(
          sides.toString(),
          JourneyFigureTexts.row(
                  "j1.",
                  new JourneyFigures.Figures(
                      0,
                      0,
                      Map.of(),
                      List.of(),
                      "purchase",
                      Optional.of(
                          new JourneyFigures.Lift(sides.get(0), sides.get(1), 0, 0, 0, 1, false))))
              .get("j1.lift"));
    assertThat(lines.values())
        .containsExactly(
            "nobody entered yet",
            "25.0% converted · nobody held out yet",
            "25.0% sent vs 10.0% held out · not significant yet");
  }

  @Test
  void a_journey_is_drawn_as_its_steps_with_the_people_at_each_and_each_sends_funnel()
      throws Exception {
    Document page = journeyPage(SPLIT, JourneyState.ACTIVE, figures(SPLIT));
    write("journey.html", page.outerHtml());
    assertThat(page.outerHtml()).doesNotContain("<b>bold</b>", "<i>A</i>");
    assertThat(page.select("h1").text()).startsWith("Cart <b>bold</b>");
    assertThat(page.select(".grid[data-live]").attr("data-live")).isEqualTo("/live/journeys/9");

    assertThat(page.select(".flow-steps > li code").eachText())
        .as("drawn so that every path points down, the journey's order kept where it can be")
        .containsExactly("split", "reminder", "bought", "done", "last-call");
    assertThat(page.select(".flow-steps > li .kind").eachText())
        .containsExactly("split", "send", "branch", "exit", "send");
    assertThat(page.select("[data-k=s.reminder.inside]").text()).isEqualTo("4");
    assertThat(page.select("#step-reminder dl.funnel dt").eachText())
        .containsExactly("Sent", "Opened", "Clicked", "Held out", "Failed", "Unknown");
    assertThat(page.select("#step-reminder dl.funnel dd").eachText())
        .containsExactly("30", "12", "5", "3", "1", "2");
    assertThat(page.select("#step-reminder [data-k=s.reminder.lift]").text())
        .isEqualTo("20.0% sent vs 0.0% held out · not significant yet");
    assertThat(page.select("#step-last-call [data-k=s.last-call.lift]").text())
        .isEqualTo("nobody reached it yet");
    assertThat(page.select("#step-reminder a[href=/campaigns/11]").text())
        .isEqualTo("Campaign <eleven>");
    assertThat(page.select("#step-last-call .line").first().text())
        .as("a campaign that is gone is said so")
        .contains("campaign 12 (no longer there)");
    assertThat(page.select("#step-split .exits").text())
        .isEqualTo("<i>A</i> · 50% → reminder · B · 50% → bought");
    assertThat(page.select("#step-bought .exits").text())
        .isEqualTo("then → done · otherwise → last-call");

    // split→reminder, reminder→bought and bought→done lie next to each other: straight arrows;
    // the entry's arrow too; split→bought and bought→last-call run in lanes of their own
    var paths = page.select("svg.flow-lines path.flow-path").eachAttr("d");
    assertThat(paths).hasSize(6);
    assertThat(paths.stream().filter(d -> d.contains("H")).count()).isEqualTo(2);
    assertThat(page.select("svg.flow-lines text").eachText())
        .contains("<i>A</i> · 50%", "B · 50%", "then", "otherwise");

    assertThat(page.select("[data-k=entries]").text()).isEqualTo("44");
    assertThat(page.select("[data-k=exits.GOAL]").text()).isEqualTo("6");
    assertThat(page.select("[data-k=sent]").text()).as("over every send step").isEqualTo("38");
    assertThat(page.select("[data-k=lift.sent]").text()).isEqualTo("25.0% (10 of 40)");
    assertThat(page.select("[data-k=lift.heldOut]").text()).isEqualTo("10.0% (1 of 10)");
    assertThat(page.select("[data-k=lift.verdict]").text()).startsWith("Not significant yet");
    assertThat(page.select("#who ~ dl").text())
        .contains("They do add_to_cart", "again 7 days after their last entry")
        .contains("Doing purchase takes a person out", "10.0% of people");
    assertThat(page.select("ul.versions li").eachText())
        .containsExactly(
            "Version 2 current saved 2026-11-26 10:00:00 UTC",
            "Version 1 saved 2026-11-26 10:00:00 UTC");
    assertThat(page.select("ul.versions a").attr("href")).isEqualTo("/journeys/9?version=1");

    var noGoal = new Journey(
        "No goal",
        new Trigger.SignedUp(),
        EntryRules.ANYONE,
        List.of(new Step.Exit("out")),
        null,
        0);
    Document plain = journeyPage(noGoal, JourneyState.DRAFT, figures(noGoal));
    assertThat(plain.select("#lift ~ p.empty").text()).contains("no goal");
  }

  @Test
  void the_moves_follow_the_state_as_guarded_forms() {
    Map<JourneyState, List<String>> expected = new LinkedHashMap<>();
    expected.put(JourneyState.DRAFT, List.of("activate"));
    expected.put(JourneyState.ACTIVE, List.of("pause", "drain"));
    expected.put(JourneyState.PAUSED, List.of("activate", "drain"));
    expected.put(JourneyState.DRAINING, List.of("activate", "pause"));
    expected.forEach((state, verbs) -> {
      Document page = journeyPage(SPLIT, state, figures(SPLIT));
      var forms = page.select("nav.controls form");
      assertThat(forms.eachAttr("action"))
          .as(state.name())
          .containsExactlyElementsOf(verbs.stream().map(v -> "/journeys/9/" + v).toList());
      assertThat(forms.select("input[name=_csrf]").eachAttr("value"))
          .as("each carries the session's token")
          .containsOnly("test-token");
      assertThat(forms.eachAttr("method")).containsOnly("post");
      assertThat(page.select("h1 .tag").text()).isEqualTo(JourneyWords.state(state));
    });
  }

  @Test
  void a_saved_journey_becomes_the_same_journey_through_the_form() throws Exception {
    for (var template : JourneyTemplates.all()) {
      Journey journey = template.journey().apply(List.of(11L, 12L, 13L));
      var built = JourneyForm.of(journey).withSpareRows(2).toJson();
      assertThat(JourneyJson.fromJson(built.json())).as(template.key()).isEqualTo(journey);
    }
    var built = JourneyForm.of(SPLIT).toJson();
    assertThat(JourneyJson.fromJson(built.json())).isEqualTo(SPLIT);
    // segments are a campaign's audience conditions, one row each as the campaign editor writes
    // them
    Journey segmented = JourneyJson.fromJson(dev.tidings.Json.MAPPER.readTree(SEGMENTED));
    var rows = JourneyForm.of(segmented);
    assertThat(rows.segment())
        .containsExactly(
            new CampaignForm.ConditionRow("country", "GB, IE"),
            new CampaignForm.ConditionRow("openedWithin", "30"));
    assertThat(rows.steps().get(0).segment())
        .containsExactly(new CampaignForm.ConditionRow("follows", "brand:velin"));
    assertThat(JourneyJson.fromJson(rows.withSpareRows(1).toJson().json())).isEqualTo(segmented);
    assertThat(JourneyWords.entry(segmented.entry()))
        .endsWith(
            "only people in the segment Country is GB, IE and Opened an email in the last 30");
    assertThat(JourneyForm.duration("90", "minutes")).isEqualTo("PT90M");
    assertThat(JourneyForm.duration("1.5", "hours")).as("left to the reader").isEqualTo("1.5");
  }

  @Test
  void the_editor_shows_each_problem_beside_its_field_counting_the_forms_rows() throws Exception {
    // what the reader cannot read is answered first, alone: a step it cannot make would shift the
    // places the journey's own checks name steps by
    var unreadable = typed("", "x", 50, "", "", "purchase", "10");
    Document first = editor(unreadable);
    assertThat(first.outerHtml()).doesNotContain("<eleven>", "<i>A</i>");
    assertThat(first.select(".problems li").eachText())
        .containsExactlyInAnyOrder(
            "Enter the name.",
            "Write the number of times as a whole number from 1 to 100.",
            "Enter the campaign of step 6.");
    assertThat(first.select(".problems h2").text()).endsWith("3 problems");
    assertThat(error(first, "name")).isEqualTo("Enter the name.");
    assertThat(error(first, "trigger.times")).contains("whole number from 1 to 100");
    assertThat(error(first, "s5.campaign"))
        .as("the JSON's fifth step is the form's sixth row: the second row is empty")
        .isEqualTo("Enter the campaign of step 6.");
    assertThat(first.getElementById("s5.campaign").attr("aria-invalid")).isEqualTo("true");
    assertThat(first.getElementById("s2.campaign").attr("aria-invalid")).isEmpty();
    assertThat(first.select(".problems a").eachAttr("href"))
        .containsExactlyInAnyOrder("#name", "#trigger.times", "#s5.campaign");
    assertThat(first.getElementById("s0.a0.label").val())
        .as("what was typed comes back to be fixed")
        .isEqualTo("<i>A</i>");
    assertThat(first.select("select[id=s1.type] option[selected]").val())
        .as("the empty row stays, empty")
        .isEmpty();
    assertThat(first.select("select[id=s2.campaign] option").eachText())
        .containsExactly("(choose a campaign)", "Campaign <eleven> (#11, draft)");
    assertThat(first.select("input[name=rows]").val()).isEqualTo("6");
    assertThat(first.select("#save").text()).isEqualTo("Save as version 3");

    // then the journey's own rules, each beside its field
    Document second = editor(typed("Cart", "1", 40, "11", "nowhere", "Purchase!", "80"));
    write("editor.html", second.outerHtml());
    assertThat(second.select(".problems li").eachText())
        .containsExactlyInAnyOrder(
            "Step 1's arms add up to 90 percent, not 100.",
            "Step 6 goes to 'nowhere', which is no step.",
            "Write the goal as an activity such as purchase, or empty.",
            "The share held out must be a percentage from 0 to 50.");
    assertThat(second.getElementById("s0.arms").select(".error").text())
        .isEqualTo("Step 1's arms add up to 90 percent, not 100.");
    assertThat(second.getElementById("s5").select("p.error").text())
        .isEqualTo("Step 6 goes to 'nowhere', which is no step.");
    assertThat(error(second, "goal")).contains("an activity such as purchase");
    assertThat(error(second, "holdOut"))
        .isEqualTo("The share held out must be a percentage from 0 to 50.");
    assertThat(second.getElementById("name").attr("aria-invalid")).isEmpty();
  }

  /**
   * The split journey as typed with an empty second row, its first arm's share, the last send's
   * campaign and next, and the journey's name, times, goal and hold-out as given.
   */
  private static JourneyForm typed(
      String name,
      String times,
      int firstArm,
      String lastCampaign,
      String lastNext,
      String goal,
      String holdOut) {
    var saved = JourneyForm.of(SPLIT);
    var rows = new ArrayList<>(saved.steps());
    rows.add(1, JourneyForm.StepRow.blank());
    var split = rows.get(0);
    rows.set(
        0,
        new JourneyForm.StepRow(
            split.id(),
            split.type(),
            split.until(),
            split.forAmount(),
            split.forUnit(),
            split.time(),
            split.campaign(),
            split.next(),
            split.condition(),
            split.activity(),
            split.segment(),
            split.then(),
            split.otherwise(),
            List.of(
                new JourneyForm.Arm("<i>A</i>", Integer.toString(firstArm), "reminder"),
                new JourneyForm.Arm("B", "50", "bought"))));
    var last = rows.get(5);
    rows.set(
        5,
        new JourneyForm.StepRow(
            last.id(),
            last.type(),
            last.until(),
            last.forAmount(),
            last.forUnit(),
            last.time(),
            lastCampaign,
            lastNext,
            last.condition(),
            last.activity(),
            last.segment(),
            last.then(),
            last.otherwise(),
            last.arms()));
    return new JourneyForm(
        name,
        "did",
        "add_to_cart",
        times,
        "1",
        "hours",
        "opened",
        "back_in_stock",
        "viewed",
        "",
        "days",
        "",
        "7",
        "days",
        List.of(),
        goal,
        holdOut,
        rows);
  }

  /** The editor showing the form as typed with what the journeys' reader found wrong with it. */
  private static Document editor(JourneyForm form) {
    var built = form.toJson();
    List<dev.tidings.Problem> problems;
    try {
      JourneyJson.fromJson(built.json());
      throw new AssertionError("the form should be refused");
    } catch (InvalidInputException refused) {
      problems = refused.asProblems();
    }
    return Jsoup.parse(JourneyEditor.render(
        VISITOR,
        new JourneyStore.Saved(9, 2, SPLIT, SAVED),
        new JourneyEditor.Draft(form, built.rowOf(), problems, List.of()),
        List.of(
            new Option("", "(choose a campaign)", false),
            new Option("11", "Campaign <eleven> (#11, draft)", false)),
        List.of()));
  }

  @Test
  void an_unknown_step_and_a_circle_are_said_in_the_forms_words() {
    var looping = new JourneyForm.Built(dev.tidings.Json.MAPPER.createObjectNode(), List.of(0, 2));
    var place = JourneyFields.of("steps[1]", looping.rowOf());
    assertThat(place.slot()).isEqualTo("s2");
    assertThat(JourneyFields.sentence(
            dev.tidings.Problem.unknown("steps[1]", "steps[1] goes to 'x', which is no step"),
            place,
            looping.rowOf()))
        .isEqualTo("Step 3 goes to 'x', which is no step.");
    assertThat(JourneyFields.of("", looping.rowOf()).slot()).isEqualTo(JourneyFields.FORM);
  }

  /** A page in {@code target/journey-pages}, with the dashboard's style, for a look in a browser. */
  private static void write(String name, String html) throws Exception {
    Path directory = Path.of("target", "journey-pages");
    Files.createDirectories(directory);
    Path css = Path.of("src/main/resources/web/dashboard.css").toAbsolutePath();
    Files.writeString(
        directory.resolve(name),
        html.replace("/static/dashboard.css", css.toUri().toString()));
  }

  private static String error(Document page, String id) {
    var error = page.getElementById(id + "-error");
    assertThat(error).as("an error beside " + id).isNotNull();
    return error.text();
  }

  private static Document journeyPage(
      Journey journey, JourneyState state, JourneyFigures.Figures figures) {
    var latest = new JourneyStore.Saved(9, 2, journey, SAVED);
    var first = new JourneyStore.Saved(9, 1, journey, SAVED);
    return Jsoup.parse(JourneyPage.render(
        VISITOR,
        new JourneyPage.Shown(latest, 2, state, figures, List.of(latest, first), Optional.empty()),
        id -> id == 11 ? Optional.of(campaign(id, "Campaign <eleven>")) : Optional.empty()));
  }

  private static dev.tidings.campaign.Campaign campaign(long id, String name) {
    return new dev.tidings.campaign.Campaign(
        id,
        dev.tidings.campaign.CampaignJson.fromJson(
            dev.tidings.Json.MAPPER.readTree("""
            {"name": "%s", "from": {"email": "news@shop.test"}, "subject": "Hi",
             "html": "<p>Hi</p><a href=\\"{{unsubscribeUrl}}\\">x</a>",
             "text": "Hi {{unsubscribeUrl}}", "audience": {"type": "all"}}""".formatted(name))),
        dev.tidings.campaign.CampaignState.DRAFT,
        1,
        Optional.empty(),
        SAVED,
        SAVED);
  }

  private static JourneyFigures.Figures figures(Journey journey) {
    List<JourneyFigures.StepFigures> steps = new ArrayList<>();
    for (Step step : journey.steps())
      steps.add(
          step.id().equals("reminder")
              ? new JourneyFigures.StepFigures(
                  "reminder",
                  4,
                  30,
                  3,
                  12,
                  5,
                  new StepSender.Outcomes(30, 27, 1, 2, 0),
                  Optional.of(new JourneyFigures.Lift(
                      Proportion.of(6, 30), Proportion.of(0, 3), 0.2, -0.1, 0.5, 0.3, false)))
              : step.id().equals("last-call")
                  ? new JourneyFigures.StepFigures(
                      "last-call",
                      1,
                      8,
                      1,
                      2,
                      0,
                      new StepSender.Outcomes(8, 8, 0, 0, 0),
                      Optional.empty())
                  : new JourneyFigures.StepFigures(
                      step.id(), 2, 0, 0, 0, 0, StepSender.Outcomes.NONE, Optional.empty()));
    return new JourneyFigures.Figures(
        44,
        11,
        Map.of("GOAL", 6L, "COMPLETED", 27L),
        steps,
        journey.goal(),
        journey.goal() == null
            ? Optional.empty()
            : Optional.of(new JourneyFigures.Lift(
                Proportion.of(10, 40), Proportion.of(1, 10), 0.15, -0.1, 0.4, 0.4, false)));
  }
}
