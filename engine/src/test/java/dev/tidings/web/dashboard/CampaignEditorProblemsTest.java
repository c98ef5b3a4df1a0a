package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignTemplates;
import dev.tidings.campaign.editor.CampaignTemplateLibrary;
import dev.tidings.message.MessageToken;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * The editor shows each problem the API finds beside the form field its path names, in the form's own
 * words: the page is rendered from what the API refused, as the editor renders it after a save.
 */
class CampaignEditorProblemsTest {
  private static final String FILLED =
      "name=Spring+sale&fromEmail=news%40shop.example&subject=Hello&html=%3Cp%3EHi%3C%2Fp%3E"
          + "&text=Hi&slots=0&priority=4&rate=50";

  private final CampaignEditor editor = new CampaignEditor(
      new CampaignEditorSources(
          null,
          null,
          new CampaignTemplateLibrary(),
          null,
          null,
          InstantSource.fixed(Instant.parse("2026-05-01T10:00:00Z"))),
      null,
      null);

  private static CampaignForm form(String body) {
    return CampaignForm.of((FormFields.Fields) FormFields.parse(body));
  }

  /** What the API says of the form, as the editor gets it when it saves. */
  private static List<Problem> refusal(CampaignForm form) {
    try {
      CampaignTemplates.compileVariants(CampaignJson.fromJson(form.toJson(Optional.empty())));
    } catch (InvalidInputException refused) {
      return refused.asProblems();
    }
    throw new AssertionError("the form was accepted");
  }

  private Document shown(CampaignForm form, List<Problem> problems) {
    var draft = new CampaignEditor.Draft(
        Optional.empty(), form, Optional.empty(), problems, Optional.empty());
    return Jsoup.parse(editor.page(Visitor.signedIn("token"), draft, ""));
  }

  private Document refused(String body) {
    var form = form(body);
    return shown(form, refusal(form));
  }

  @Test
  void a_missing_from_address_is_asked_for_by_the_forms_label() {
    var page = refused(FILLED.replace("fromEmail=news%40shop.example", "fromEmail="));
    assertThat(page.select("#fromEmail").attr("aria-invalid")).isEqualTo("true");
    assertThat(page.select("#fromEmail-error").text()).isEqualTo("Enter the From address.");
    assertThat(page.select("#problems li").eachText()).containsExactly("Enter the From address.");
    assertThat(page.select("#problems a").attr("href")).isEqualTo("#fromEmail");
    assertThat(page.text()).doesNotContain("missing required field");
  }

  @Test
  void a_from_address_in_the_wrong_form_says_how_to_write_it() {
    var page = refused(FILLED.replace("news%40shop.example", "not-an-address"));
    assertThat(page.select("#fromEmail").attr("aria-invalid")).isEqualTo("true");
    assertThat(page.select("#fromEmail-error").text())
        .isEqualTo("Write the From address as an address such as news@example.com.");
    assertThat(page.select("#name").attr("aria-invalid")).isEmpty();
  }

  @Test
  void a_number_out_of_range_is_shown_at_its_field_with_the_range() {
    var page = refused(FILLED.replace("slots=0", "slots=99"));
    assertThat(page.select("#slots-error").text())
        .isEqualTo("The number of open-time product slots is outside its limits"
            + " (a whole number from 0 to " + MessageToken.MAX_SLOTS + ").");
    assertThat(page.select("#fromEmail-error")).isEmpty();
  }

  @Test
  void a_value_that_is_not_a_number_is_shown_at_its_field() {
    var page = refused(FILLED.replace("priority=4", "priority=high"));
    assertThat(page.select("#priority + .error, #priority ~ .error").text())
        .isEqualTo("Write the Priority as a whole number from 0 to 9.");
  }

  @Test
  void an_unknown_reference_in_a_condition_is_shown_beside_its_row() {
    var page =
        refused(FILLED + "&c0.type=country&c0.value=GB&c1.type=follows&c1.value=planet%3Amars");
    assertThat(page.select("[id=c1.value]").attr("aria-invalid")).isEqualTo("true");
    assertThat(page.select("#c1-error").text())
        .isEqualTo("The value of condition 2 names nothing Tidings knows"
            + " (kind:id, e.g. brand:acme or category:shoes).");
    assertThat(page.select("#c0-error")).isEmpty();
  }

  @Test
  void a_missing_condition_value_is_asked_for_at_its_row() {
    var page = refused(FILLED + "&c0.type=clicked&c0.value=");
    assertThat(page.select("#c0-error").text()).startsWith("Enter the value of condition 1");
  }

  @Test
  void a_template_problem_is_shown_at_its_part_with_its_line() {
    var page = refused(FILLED.replace(
        "%3Cp%3EHi%3C%2Fp%3E", "%3Cp%3EHi%3C%2Fp%3E%0A%3Cscript%3Ex%3C%2Fscript%3E"));
    assertThat(page.select("#html").attr("aria-invalid")).isEqualTo("true");
    assertThat(page.select("#html-error").text()).startsWith("HTML part: line 2");
    assertThat(page.select("#problems a").attr("data-line")).isEqualTo("2");
  }

  @Test
  void the_highlight_follows_the_path_whatever_the_sentence_says() {
    var form = form(FILLED);
    var page = shown(
        form,
        List.of(Problem.at("subject", Problem.Rule.MISSING, "words no parser would recognise")));
    assertThat(page.select("#subject").attr("aria-invalid")).isEqualTo("true");
    assertThat(page.select("#subject-error").text()).isEqualTo("Enter the Subject.");
  }

  @Test
  void a_problem_about_the_whole_campaign_is_shown_at_the_top_leading_to_the_first_field() {
    var page = shown(form(FILLED), List.of(Problem.of("the campaign changed meanwhile")));
    assertThat(page.select("#problems li").eachText())
        .containsExactly("The campaign: the campaign changed meanwhile.");
    assertThat(page.select("#problems a").attr("href")).isEqualTo("#name");
  }
}
