package dev.tidings.web.dashboard;

import dev.tidings.Attempt;
import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignDefinition;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignState;
import dev.tidings.message.MessageToken;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.web.KindStatus;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The campaign editor: {@code /campaigns/new} and {@code /campaigns/{id}/edit}. One form holds the whole
 * definition; its submit buttons say what to do with it ({@code intent}): save it, count its audience, or
 * add a block, the last two without saving, so that all of it works without a script. The form becomes
 * the API's JSON and goes through the same service, so the editor refuses exactly what the API refuses.
 */
final class CampaignEditor {
  /** A campaign's HTML may be long; the form carries it, its text part and three variants. */
  static final int MAX_FORM_BYTES = 4 * 1024 * 1024;

  private static final Pattern LINE = Pattern.compile("\\bline (\\d+)\\b");
  private static final List<String> VARIABLES = List.of(
      "{{subscriber.firstName}}",
      "{{subscriber.name}}",
      "{{subscriber.email}}",
      "{{subscriber.city}}",
      "{{subscriber.country}}",
      "{{campaign.name}}",
      "{{slotCount}}",
      "{{notificationCount}}");

  private final CampaignEditorSources sources;
  private final FormGuard guard;
  private final CampaignActions actions;

  CampaignEditor(CampaignEditorSources sources, FormGuard guard, CampaignActions actions) {
    this.sources = sources;
    this.guard = guard;
    this.actions = actions;
  }

  void register(HttpRouting.Builder routing, Pages pages) {
    routing.get("/campaigns/new", pages.page(this::newForm));
    routing.post("/campaigns/new", pages.page(this::create));
    routing.post("/campaigns/audience-count", pages.page(this::liveCount));
    routing.get("/campaigns/{id}/edit", pages.page(this::editForm));
    routing.post("/campaigns/{id}/edit", pages.page(this::save));
  }

  private void newForm(ServerRequest request, ServerResponse response, Visitor visitor) {
    var template = request.query().first("template").asOptional().filter(t -> !t.isBlank());
    CampaignForm form = CampaignForm.blank();
    if (template.isPresent()) {
      var starter = sources.templates().get(template.get());
      if (starter.isEmpty()) {
        Html.send(response, 404, notFound(visitor, "No template named " + template.get() + "."));
        return;
      }
      form = CampaignForm.of(starter.get());
    }
    Html.send(
        response,
        200,
        page(
            visitor, new Draft(Optional.empty(), form, template, List.of(), Optional.empty()), ""));
  }

  private void editForm(ServerRequest request, ServerResponse response, Visitor visitor) {
    Optional<Campaign> campaign = CampaignPath.id(request).flatMap(sources.campaigns()::get);
    if (campaign.isEmpty()) {
      CampaignPath.notFound(response, visitor);
      return;
    }
    if (!editable(campaign.get(), response, visitor)) return;
    String notice =
        request.query().first("done").asOptional().map(CampaignEditor::notice).orElse("");
    Html.send(
        response,
        200,
        page(
            visitor,
            new Draft(
                campaign,
                CampaignForm.of(campaign.get().definition()),
                Optional.empty(),
                List.of(),
                Optional.empty()),
            notice));
  }

  private static String notice(String done) {
    return switch (done) {
      case "saved" -> "Saved.";
      case "tested" -> "Test sent. It is marked [Test] and counts in no funnel.";
      default -> "";
    };
  }

  private void create(ServerRequest request, ServerResponse response, Visitor visitor) {
    var fields = guard.accept(request, response, visitor, MAX_FORM_BYTES);
    if (fields.isEmpty()) return;
    handle(response, visitor, Optional.empty(), fields.get());
  }

  private void save(ServerRequest request, ServerResponse response, Visitor visitor) {
    Optional<Campaign> campaign = CampaignPath.id(request).flatMap(sources.campaigns()::get);
    if (campaign.isEmpty()) {
      CampaignPath.notFound(response, visitor);
      return;
    }
    var fields = guard.accept(request, response, visitor, MAX_FORM_BYTES);
    if (fields.isEmpty()) return;
    if (!editable(campaign.get(), response, visitor)) return;
    handle(response, visitor, campaign, fields.get());
  }

  private void handle(
      ServerResponse response,
      Visitor visitor,
      Optional<Campaign> campaign,
      FormFields.Fields fields) {
    CampaignForm form = CampaignForm.of(fields);
    Optional<String> template = Optional.of(fields.get("template")).filter(name -> !name.isBlank());
    switch (fields.get("intent")) {
      case "count" -> {
        actions.done(CampaignActions.Action.COUNT);
        var counted = count(form);
        Html.send(
            response,
            counted.status(),
            page(
                visitor,
                new Draft(campaign, form, template, counted.problems(), counted.count()),
                ""));
      }
      case "block" -> {
        actions.done(CampaignActions.Action.BLOCK);
        var added = addBlock(form, fields);
        Html.send(
            response,
            added.status(),
            page(
                visitor,
                new Draft(campaign, added.form(), template, added.problems(), Optional.empty()),
                added.problems().isEmpty() ? "Block added: save to keep it." : ""));
      }
      default -> {
        var scheduledAt = campaign.flatMap(c -> c.definition().scheduledAt());
        var saving = Attempt.of(() -> {
          CampaignDefinition definition = CampaignJson.fromJson(form.toJson(scheduledAt));
          return campaign.isPresent()
              ? sources.campaigns().replace(campaign.get().id(), definition).id()
              : sources.campaigns().create(definition).id();
        });
        switch (saving) {
          case Attempt.Done<Long> saved -> {
            actions.done(
                campaign.isPresent() ? CampaignActions.Action.SAVE : CampaignActions.Action.CREATE);
            // a new draft goes to its page, which offers what comes next (preview, test, schedule);
            // a saved one stays in the editor, where the person was working
            Html.redirect(
                response,
                campaign.isPresent()
                    ? "/campaigns/" + saved.value() + "/edit?done=saved"
                    : "/campaigns/" + saved.value() + "?done=created");
          }
          case Attempt.Refused<Long> refused -> {
            if (refused.reason().kind() == ErrorKind.INVALID)
              actions.done(CampaignActions.Action.REFUSED);
            // the form comes back as typed, with the status the API gives the same refusal
            Html.send(
                response,
                KindStatus.of(refused.reason().kind()),
                page(
                    visitor,
                    new Draft(
                        campaign, form, template, refused.reason().asProblems(), Optional.empty()),
                    ""));
          }
        }
      }
    }
  }

  /** The audience's size now, or what is wrong with its conditions. */
  /** The audience's size, or what refused to count it and the status of that refusal. */
  record Counted(Optional<String> count, List<Problem> problems, int status) {}

  private Counted count(CampaignForm form) {
    var counting = Attempt.of(() ->
        sources.campaigns().countAudience(CampaignJson.audienceFromJson(form.audienceJson())));
    return switch (counting) {
      case Attempt.Done<Long> counted -> {
        long n = counted.value();
        yield new Counted(
            Optional.of(
                Html.count(n) + (n == 1 ? " subscriber" : " subscribers") + " would get it now"),
            List.of(),
            200);
      }
      case Attempt.Refused<Long> refused ->
        new Counted(
            Optional.empty(),
            refused.reason().asProblems(),
            KindStatus.of(refused.reason().kind()));
    };
  }

  /** The live count a script asks for while the conditions are edited: JSON, never a page. */
  private void liveCount(ServerRequest request, ServerResponse response, Visitor visitor) {
    var fields = guard.accept(request, response, visitor, MAX_FORM_BYTES);
    if (fields.isEmpty()) return;
    var form = CampaignForm.of(fields.get());
    var counted = count(form);
    Map<String, Object> out = new LinkedHashMap<>();
    counted.count().ifPresent(text -> out.put("text", text));
    // in the form's words, as the page would show them beside the rows
    out.put(
        "problems",
        counted.problems().stream()
            .map(problem -> EditorFields.sentence(problem, EditorFields.of(problem.field(), form)))
            .toList());
    response.status(counted.status());
    response.header(HeaderNames.CONTENT_TYPE, "application/json");
    response.header(HeaderNames.CACHE_CONTROL, "no-store");
    response.send(Json.MAPPER.writeValueAsBytes(out));
  }

  record Added(CampaignForm form, List<Problem> problems, int status) {}

  private Added addBlock(CampaignForm form, FormFields.Fields fields) {
    return switch (Attempt.of(() -> BlockForm.make(fields))) {
      case Attempt.Done<BlockForm.Added> made -> {
        BlockForm.Added block = made.value();
        String slots = block
            .slots()
            .map(n -> Integer.toString(Math.max(n, parse(form.slots()))))
            .orElse(form.slots());
        yield new Added(
            form.withContent(
                insertBeforeBodyEnd(form.html(), block.html()),
                form.text().isEmpty() ? block.text() : form.text() + "\n\n" + block.text(),
                slots,
                form.digest() || block.digest()),
            List.of(),
            200);
      }
      case Attempt.Refused<BlockForm.Added> refused ->
        new Added(
            form, refused.reason().asProblems(), KindStatus.of(refused.reason().kind()));
    };
  }

  private static int parse(String slots) {
    try {
      return Integer.parseInt(slots.trim());
    } catch (NumberFormatException notANumber) {
      return 0;
    }
  }

  /** A block goes before the end of the body (or at the end, in a fragment without one). */
  static String insertBeforeBodyEnd(String html, String block) {
    int end = lastBodyEnd(html);
    if (end < 0) return html.isEmpty() ? block : html + "\n" + block;
    return html.substring(0, end) + block + "\n" + html.substring(end);
  }

  /**
   * Where the last {@code </body>} starts, in any case, found in the text itself: a lower-cased copy
   * is not as long as the text when it holds a letter such as İ, whose lower case is two chars, so
   * its indices do not point into the original.
   */
  private static int lastBodyEnd(String html) {
    String tag = "</body>";
    for (int at = html.length() - tag.length(); at >= 0; at--)
      if (html.regionMatches(true, at, tag, 0, tag.length())) return at;
    return -1;
  }

  private boolean editable(Campaign campaign, ServerResponse response, Visitor visitor) {
    var state = sources.campaigns().view(campaign).state();
    if (state.editable()) return true;
    Html.send(
        response,
        409,
        Html.page(
            "Not editable",
            Html.Section.CAMPAIGNS,
            visitor,
            "<h1>Not editable</h1><p role=\"alert\">Campaign " + campaign.id() + " is "
                + Html.escape(state.name().toLowerCase(Locale.ROOT))
                + ": only a draft or a scheduled campaign can be changed. <a href=\"/campaigns/"
                + campaign.id() + "\">Back to the campaign</a></p>"));
    return false;
  }

  /** What the editor shows: the form as typed, the campaign it edits, what was wrong, the count. */
  record Draft(
      Optional<Campaign> campaign,
      CampaignForm form,
      Optional<String> template,
      List<Problem> problems,
      Optional<String> count) {}

  /** A problem as the list at the top shows it: the field it leads to, in the form's words. */
  record Shown(String anchor, String text, @Nullable Integer line) {}

  record TemplateChoice(String name, String title, String description, boolean current) {}

  record Row(
      int index,
      int number,
      List<Option> kinds,
      String value,
      String hint,
      @Nullable String error) {}

  record VariantView(
      int index, int number, String name, String subject, String html, List<Option> algorithms) {}

  record View(
      String csrf,
      String action,
      String heading,
      @Nullable Long campaignId,
      String title,
      boolean isDraft,
      List<String> notice,
      boolean hasProblems,
      String problemCount,
      List<Shown> problems,
      boolean hasTemplates,
      List<TemplateChoice> templates,
      String template,
      CampaignForm form,
      Map<String, Boolean> invalid,
      Map<String, List<String>> errors,
      List<String> variables,
      List<Option> blocks,
      int maxSlots,
      List<Row> rows,
      List<String> count,
      List<Option> allocations,
      List<Option> metrics,
      List<VariantView> variantRows,
      List<CampaignControls.ScheduleForm> schedule,
      List<Option> sendTimeModes) {}

  String page(Visitor visitor, Draft draft, String notice) {
    Map<String, List<String>> errors = new LinkedHashMap<>();
    List<Shown> problems = new ArrayList<>();
    for (Problem problem : draft.problems()) {
      var place = EditorFields.of(problem.field(), draft.form());
      String text = EditorFields.sentence(problem, place);
      String field = place.slot();
      errors.computeIfAbsent(field, f -> new ArrayList<>()).add(text);
      // the line a template problem is on, for the script that moves the cursor there
      Matcher line = LINE.matcher(problem.message());
      String anchor = switch (field) {
        case EditorFields.FORM -> "name";
        case "digest" -> "digestDays";
        default -> field;
      };
      problems.add(new Shown(
          anchor,
          text,
          field.equals("html") && line.find() ? Integer.valueOf(line.group(1)) : null));
    }
    Map<String, Boolean> invalid = new LinkedHashMap<>();
    errors.keySet().forEach(field -> invalid.put(field, true));
    var form = draft.form();
    List<Row> rows = new ArrayList<>();
    int shown = Math.min(
        CampaignForm.MAX_CONDITIONS, form.conditions().size() + CampaignForm.SPARE_CONDITIONS);
    for (int i = 0; i < shown; i++) {
      var row = i < form.conditions().size()
          ? form.conditions().get(i)
          : new CampaignForm.ConditionRow("", "");
      List<Option> kinds = new ArrayList<>();
      kinds.add(new Option("", "(none)", row.type().isEmpty()));
      for (var kind : CampaignForm.Kind.values())
        kinds.add(new Option(kind.wire, kind.label, kind.wire.equals(row.type())));
      String hint = CampaignForm.Kind.of(row.type()).map(k -> k.hint).orElse("");
      var rowErrors = errors.get("c" + i);
      rows.add(new Row(
          i,
          i + 1,
          kinds,
          row.value(),
          hint,
          rowErrors == null ? null : String.join("; ", rowErrors)));
    }
    List<VariantView> variants = new ArrayList<>();
    for (int i = 0; i < CampaignForm.VARIANT_ROWS; i++) {
      var v = i < form.variants().size()
          ? form.variants().get(i)
          : new CampaignForm.VariantRow(i == 0 ? "A" : "", "", "", List.of());
      var algorithms = Arrays.stream(Algorithm.values())
          .map(a -> new Option(a.id(), a.id().replace('_', ' '), v.algorithms().contains(a.id())))
          .toList();
      variants.add(new VariantView(i, i + 1, v.name(), v.subject(), v.html(), algorithms));
    }
    var campaign = draft.campaign();
    boolean isNew = campaign.isEmpty();
    String title = campaign.map(c -> c.definition().name()).orElse("New campaign");
    var templates = isNew
        ? sources.templates().list().stream()
            .map(t -> new TemplateChoice(
                t.name(),
                t.title(),
                t.description(),
                draft.template().equals(Optional.of(t.name()))))
            .toList()
        : List.<TemplateChoice>of();
    var view = new View(
        visitor.token(),
        campaign.map(c -> "/campaigns/" + c.id() + "/edit").orElse("/campaigns/new"),
        isNew ? "New campaign" : "Edit: " + title,
        campaign.map(Campaign::id).orElse(null),
        title,
        campaign.map(c -> c.state() == CampaignState.DRAFT).orElse(false),
        notice.isEmpty() ? List.of() : List.of(notice),
        !problems.isEmpty(),
        problems.size() == 1 ? "one problem" : problems.size() + " problems",
        problems,
        !templates.isEmpty(),
        templates,
        draft.template().orElse(""),
        form,
        invalid,
        errors,
        VARIABLES,
        BlockForm.KINDS,
        MessageToken.MAX_SLOTS,
        rows,
        draft.count().stream().toList(),
        List.of(
            new Option("ab", "A/B test, then the winner", form.allocation().equals("ab")),
            new Option(
                "bandit", "Bandit (adapts as it sends)", form.allocation().equals("bandit"))),
        List.of(
            new Option("human_click", "People clicking", form.metric().equals("human_click")),
            new Option("human_open", "People opening", form.metric().equals("human_open"))),
        variants,
        campaign.stream()
            .map(c -> CampaignControls.scheduleForm(
                c.id(),
                c.definition().scheduledAt(),
                visitor.zone(),
                sources.clock().instant()))
            .toList(),
        List.of(
            new Option("at-once", "All at once", !form.sendTimeMode().equals("per-subscriber")),
            new Option(
                "per-subscriber",
                "At each reader's usual hour",
                form.sendTimeMode().equals("per-subscriber"))));
    return Html.page(
        isNew ? "New campaign" : "Edit " + title,
        Html.Section.CAMPAIGNS,
        visitor,
        Templates.render("campaign-edit", view));
  }

  private static String notFound(Visitor visitor, String what) {
    return Html.page(
        "Not found",
        Html.Section.CAMPAIGNS,
        visitor,
        Templates.render("notfound", new Html.NotFound(what)));
  }
}
