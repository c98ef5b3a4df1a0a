package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

class CampaignTemplatesTest {
  private static CampaignDefinition withHtml(String html) {
    ObjectNode json = Fixtures.json();
    json.put("html", html);
    return CampaignJson.fromJson(json);
  }

  private static InvalidInputException refused(CampaignDefinition definition) {
    try {
      CampaignTemplates.compile(definition);
    } catch (InvalidInputException e) {
      return e;
    }
    throw new AssertionError("the templates were accepted");
  }

  @Test
  void the_fixture_templates_compile_and_place_their_slots_and_unsubscribe_link() {
    var compiled = CampaignTemplates.compile(Fixtures.definition());
    assertThat(compiled.htmlPlacesSlots()).isTrue();
    assertThat(compiled.htmlLinksUnsubscribe()).isTrue();
    assertThat(compiled.textPlacesSlots()).isTrue();
    assertThat(compiled.textLinksUnsubscribe()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"<p>{{{subscriber.name}}}</p>", "<p>{{& subscriber.name}}</p>"})
  void triple_mustaches_are_refused(String html) {
    assertThat(refused(withHtml(html)).problems())
        .containsExactly("html: triple mustaches {{{ }}} and {{& }} are refused; every variable is"
            + " escaped, write {{name}}");
  }

  @Test
  void a_triple_mustache_in_the_subject_is_refused_too() {
    ObjectNode json = Fixtures.json();
    json.put("subject", "Hi {{{subscriber.name}}}");
    assertThat(refused(CampaignJson.fromJson(json)).problems())
        .singleElement()
        .asString()
        .startsWith("subject: triple mustaches");
  }

  @Test
  void partials_and_delimiter_changes_are_refused() {
    assertThat(refused(withHtml("<p>{{> footer}}</p>")).problems())
        .singleElement()
        .asString()
        .startsWith("html: partials");
    assertThat(refused(withHtml("{{=<% %>=}}<p><% x %></p>")).problems())
        .singleElement()
        .asString()
        .startsWith("html: partials");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"JaVaScRiPt :alert(1)\">x</a>",
        "<img src=\"data:text/html;base64,PHNjcmlwdD4=\">",
        "<a href='vbscript:msgbox(1)'>x</a>"
      })
  void script_links_are_refused(String html) {
    assertThat(refused(withHtml(html)).problems())
        .anyMatch(problem -> problem.contains("is refused"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<a href=\"{{subscriber.city}}\">x</a>",
        "<a href=\"ftp://files.example/x\">x</a>",
        "<a href=\"cid:logo\">x</a>",
        "<a href=//evil.example>x</a>",
        "<a href=\"/steal\">x</a>"
      })
  void a_link_whose_scheme_data_could_choose_or_that_is_not_http_is_refused(String html) {
    assertThat(refused(withHtml(html)).problems())
        .anyMatch(problem -> problem.contains("must start with http:// or https://"));
  }

  @Test
  void scripts_are_refused() {
    assertThat(refused(withHtml("<script>alert(1)</script>")).problems())
        .containsExactly("html: line 1: <script> is refused: an email carries no scripts");
  }

  @Test
  void http_links_with_variables_after_the_scheme_and_tidings_urls_are_accepted() {
    var compiled = CampaignTemplates.compile(withHtml(
        "<a href=\"https://shop.example/u/{{subscriber.id}}\">x</a><a href='{{ unsubscribeUrl }}'>u</a>"
            + "<img src={{pixelUrl}}>"));
    assertThat(compiled.htmlLinksUnsubscribe()).isTrue();
    assertThat(compiled.htmlPlacesSlots()).isFalse();
  }

  @Test
  void a_broken_template_says_so() {
    assertThatThrownBy(() -> CampaignTemplates.compile(withHtml("<p>{{#slots}}unclosed</p>")))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .singleElement()
                .asString()
                .startsWith("html: not a valid template"));
  }
}
