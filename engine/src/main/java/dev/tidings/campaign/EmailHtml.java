package dev.tidings.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.Range;
import org.jsoup.parser.Parser;

/**
 * An email's HTML template checked against an allow-list, after jsoup has parsed it as a browser would
 * (entities decoded, names lower-cased): elements and attributes that emails use pass, everything else
 * is refused with its line. Links and image sources must be {@code http(s)}, {@code mailto:}, {@code
 * tel:}, a fragment, or exactly one of the URLs Tidings writes itself; images may also be {@code
 * data:image/...} (not SVG). Outlook's conditional comments are parsed and checked the same way, with
 * its VML elements allowed.
 *
 * <p>The template is Mustache, so a variable may stand in text (it is HTML-escaped there), or inside a
 * quoted attribute value that cannot change the meaning of the attribute: not in an unquoted value (a
 * space in the data would start a new attribute), not in a tag or attribute name, not in a {@code
 * style} attribute or element, and at the start of a link only as one of the URLs Tidings writes.
 * Triple mustaches are refused everywhere before this check (see {@link CampaignTemplates}).
 */
final class EmailHtml {
  private static final Set<String> ELEMENTS = Set.of(
      "html",
      "head",
      "body",
      "title",
      "meta",
      "link",
      "style",
      "table",
      "thead",
      "tbody",
      "tfoot",
      "tr",
      "td",
      "th",
      "caption",
      "colgroup",
      "col",
      "div",
      "span",
      "p",
      "br",
      "hr",
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "a",
      "img",
      "font",
      "center",
      "b",
      "strong",
      "i",
      "em",
      "u",
      "s",
      "strike",
      "small",
      "big",
      "sub",
      "sup",
      "ul",
      "ol",
      "li",
      "dl",
      "dt",
      "dd",
      "blockquote",
      "pre",
      "code",
      "tt",
      "kbd",
      "samp",
      "var",
      "abbr",
      "acronym",
      "address",
      "cite",
      "q",
      "del",
      "ins",
      "mark",
      "section",
      "article",
      "header",
      "footer",
      "main",
      "nav",
      "aside",
      "figure",
      "figcaption",
      "picture",
      "source",
      "wbr",
      "bdi",
      "bdo",
      "time",
      "map",
      "area",
      "xml");

  private static final Set<String> ATTRIBUTES = Set.of(
      "align",
      "valign",
      "width",
      "height",
      "bgcolor",
      "background",
      "border",
      "cellpadding",
      "cellspacing",
      "color",
      "face",
      "size",
      "style",
      "class",
      "id",
      "dir",
      "lang",
      "title",
      "alt",
      "href",
      "src",
      "target",
      "rel",
      "name",
      "colspan",
      "rowspan",
      "role",
      "scope",
      "nowrap",
      "hspace",
      "vspace",
      "clear",
      "summary",
      "abbr",
      "headers",
      "charset",
      "content",
      "type",
      "start",
      "reversed",
      "media",
      "srcset",
      "sizes",
      "loading",
      "span",
      "frame",
      "rules",
      "char",
      "charoff",
      "shape",
      "coords",
      "usemap",
      "leftmargin",
      "topmargin",
      "marginwidth",
      "marginheight",
      "link",
      "vlink",
      "alink",
      "text",
      "xmlns",
      "xml:lang",
      "cite",
      "datetime",
      "translate",
      "http-equiv");

  private static final Set<String> URL_ATTRIBUTES =
      Set.of("href", "src", "background", "cite", "srcset", "usemap");
  private static final Set<String> IMAGE_ATTRIBUTES = Set.of("src", "background", "srcset");
  private static final Set<String> HARMLESS_HTTP_EQUIV = Set.of("content-type", "x-ua-compatible");

  private static final Pattern VML = Pattern.compile("[vow]:[a-z][a-z0-9]*");
  private static final Pattern FREE_ATTRIBUTE =
      Pattern.compile("(aria|data)-[a-z0-9-]+|xmlns:[a-z]+");
  private static final Pattern VML_ATTRIBUTE = Pattern.compile("[a-z][a-z0-9:_-]*");
  private static final Pattern ONE_VARIABLE = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_.]+)\\s*}}");
  private static final Pattern VARIABLE_AS_TAG = Pattern.compile("<\\s*/?\\s*\\{\\{");
  private static final Pattern SAFE_LINK = Pattern.compile("(https?://|mailto:|tel:|#).*");
  private static final Pattern SAFE_IMAGE =
      Pattern.compile("(https?://|cid:|data:image/(png|gif|jpe?g|webp|bmp)[;,]).*");
  private static final Pattern SCRIPT_SCHEME = Pattern.compile("(javascript|vbscript|data):.*");
  private static final Pattern CSS_ESCAPE = Pattern.compile("\\\\([0-9a-fA-F]{1,6})\\s?|\\\\(.)");
  private static final Pattern CSS_URL = Pattern.compile("url\\(['\"]?([^'\")]*)");
  private static final Pattern CSS_FORBIDDEN = Pattern.compile(
      "expression\\(|javascript:|vbscript:|-moz-binding|behavior:|data:(?!image/(png|gif|jpe?g|webp|bmp)[;,])");

  private EmailHtml() {}

  /** Every problem of {@code html}, each starting with {@code field} and the line. */
  static List<String> problems(String field, String html) {
    var problems = new ArrayList<String>();
    var found = new Found(field, problems);
    Matcher tag = VARIABLE_AS_TAG.matcher(html);
    if (tag.find()) found.add(lineOf(html, tag.start()), "a variable as a tag's name is refused");
    check(
        Jsoup.parse(html, "", Parser.htmlParser().setTrackPosition(true)),
        html,
        0,
        false,
        found,
        0);
    return problems;
  }

  private record Found(String field, List<String> problems) {
    void add(int line, String problem) {
      problems.add(field + ": line " + line + ": " + problem);
    }
  }

  /** Deeper than any email's markup; the check recurses once per level. */
  static final int MAX_DEPTH = 100;

  private static void check(
      Node root, String source, int lineOffset, boolean inComment, Found found, int depth) {
    if (depth > MAX_DEPTH) {
      found.add(
          lineOffset + line(root.sourceRange()),
          "elements nested deeper than " + MAX_DEPTH + " are refused");
      return;
    }
    for (Node node : root.childNodes()) {
      int line = lineOffset + line(node.sourceRange());
      switch (node) {
        case Element element -> {
          checkElement(element, source, lineOffset, inComment, found);
          check(element, source, lineOffset, inComment, found, depth + 1);
        }
        case Comment comment -> {
          // Outlook reads HTML inside <!--[if mso]> ... <![endif]-->; other clients ignore
          // comments, but which one is which is not ours to decide
          String data = comment.getData();
          var inner = Jsoup.parse(data, "", Parser.htmlParser().setTrackPosition(true));
          check(inner, data, line - 1, true, found, depth + 1);
        }
        case DataNode data
        when data.getWholeData().contains("{{") ->
          found.add(line, "a variable inside <style> is refused: write the style out");
        default -> {}
      }
    }
  }

  private static void checkElement(
      Element element, String source, int lineOffset, boolean inComment, Found found) {
    String name = element.normalName();
    int line = lineOffset + line(element.sourceRange());
    boolean vml = inComment && VML.matcher(name).matches();
    if (name.contains("{")) {
      found.add(line, "a variable as a tag's name is refused");
      return;
    } else if (!ELEMENTS.contains(name) && !vml) {
      found.add(line, "<" + name + "> is refused: " + why(name));
      return;
    }
    if (name.equals("style")) checkCss(line, "<style>", element.data(), found);
    for (Attribute attribute : element.attributes()) {
      checkAttribute(element, attribute, source, lineOffset, vml, found);
    }
  }

  private static String why(String element) {
    return switch (element) {
      case "script", "noscript", "template" -> "an email carries no scripts";
      case "base" -> "it would change where every link of the email goes";
      case "form", "input", "button", "select", "textarea", "option", "label", "fieldset" ->
        "an email carries no forms";
      case "iframe", "frame", "frameset", "object", "embed", "applet", "portal" ->
        "an email embeds no other documents";
      case "svg", "math" -> "inline SVG and MathML can carry scripts; use an <img>";
      default -> "it is not among the elements an email uses";
    };
  }

  private static void checkAttribute(
      Element element,
      Attribute attribute,
      String source,
      int lineOffset,
      boolean vml,
      Found found) {
    String name = attribute.getKey().toLowerCase(Locale.ROOT);
    String value = attribute.getValue();
    Range.AttributeRange range = attribute.sourceRange();
    int line = lineOffset + line(range.nameRange());
    String where = "<" + element.normalName() + "> attribute " + shorten(name);
    if (name.contains("{") || name.contains("}")) {
      found.add(line, "a variable as an attribute (" + shorten(name) + ") is refused");
      return;
    }
    if (name.startsWith("on")) {
      found.add(line, where + " is refused: an email carries no scripts (event handlers)");
      return;
    }
    boolean allowed = vml
        ? VML_ATTRIBUTE.matcher(name).matches()
        : ATTRIBUTES.contains(name) || FREE_ATTRIBUTE.matcher(name).matches();
    if (!allowed) {
      found.add(line, where + " is refused: it is not among the attributes an email uses");
      return;
    }
    if (name.equals("http-equiv")
        && !HARMLESS_HTTP_EQUIV.contains(value.strip().toLowerCase(Locale.ROOT))) {
      found.add(
          line,
          "<meta http-equiv=\"" + shorten(value) + "\"> is refused: only Content-Type"
              + " and X-UA-Compatible are allowed");
      return;
    }
    boolean variable = value.contains("{{");
    if (variable && unquoted(source, range) && !tidingsUrl(value)) {
      found.add(line, where + ": a variable in a value without quotes is refused: quote it");
      return;
    }
    if (name.equals("style")) {
      if (variable) {
        found.add(line, where + ": a variable in a style is refused: write the style out");
      } else {
        checkCss(line, where, value, found);
      }
      return;
    }
    if (URL_ATTRIBUTES.contains(name)) {
      if (name.equals("srcset")) {
        for (String candidate : value.split(",")) {
          checkUrl(line, where, candidate.strip().split("\\s+")[0], true, found);
        }
      } else {
        checkUrl(line, where, value, IMAGE_ATTRIBUTES.contains(name), found);
      }
    }
  }

  /** Exactly one of the URLs Tidings writes itself (no space in them, no scheme data could pick). */
  private static boolean tidingsUrl(String value) {
    Matcher variable = ONE_VARIABLE.matcher(value.strip());
    return variable.matches() && CampaignTemplates.URL_VARIABLES.contains(variable.group(1));
  }

  /** The value's range starts after its quote, so the character before it says whether it has one. */
  private static boolean unquoted(String source, Range.AttributeRange range) {
    if (!range.valueRange().isTracked()) return false;
    int start = range.valueRange().start().pos();
    return start > 0 && start <= source.length() && "\"'".indexOf(source.charAt(start - 1)) < 0;
  }

  private static void checkUrl(int line, String where, String value, boolean image, Found found) {
    String link = value.strip();
    if (tidingsUrl(link)) return;
    String normal = normalUrl(link);
    if (SAFE_LINK.matcher(normal).matches() && !normal.startsWith("#{{")) return;
    if (image && SAFE_IMAGE.matcher(normal).matches()) return;
    Matcher script = SCRIPT_SCHEME.matcher(normal);
    if (script.matches()) {
      found.add(
          line,
          where + "=\"" + shorten(link) + "\": '" + script.group(1) + ":' is refused:"
              + " links must be http(s) and an email carries no scripts");
      return;
    }
    found.add(
        line,
        where + "=\"" + shorten(link) + "\" is refused: a link must start with"
            + " http:// or https:// (mailto:, tel:, # too), or be one of {{"
            + String.join(
                ", ", CampaignTemplates.URL_VARIABLES.stream().sorted().toList()) + "}}");
  }

  /**
   * The URL as a browser reads its scheme: entities are decoded already; browsers drop control
   * characters and whitespace around and inside the scheme, and schemes are case-insensitive.
   */
  private static String normalUrl(String link) {
    var out = new StringBuilder(link.length());
    link.codePoints()
        .filter(c -> c > 0x20 && (c < 0x7f || c > 0x9f) && !Character.isWhitespace(c))
        .forEach(out::appendCodePoint);
    return out.toString().toLowerCase(Locale.ROOT);
  }

  private static void checkCss(int line, String where, String css, Found found) {
    String normal = normalCss(css);
    Matcher forbidden = CSS_FORBIDDEN.matcher(normal);
    if (forbidden.find()) {
      found.add(
          line,
          where + ": '" + forbidden.group() + "' in a style is refused: an email"
              + " carries no scripts");
      return;
    }
    Matcher url = CSS_URL.matcher(normal);
    while (url.find()) {
      String target = url.group(1);
      if (!SAFE_IMAGE.matcher(target).matches() && !target.startsWith("#")) {
        found.add(
            line,
            where + ": url(" + shorten(target) + ") in a style is refused: images must"
                + " be http(s)");
        return;
      }
    }
  }

  /** CSS as a browser reads it: comments dropped, escapes decoded, no whitespace, lower case. */
  private static String normalCss(String css) {
    String withoutComments = css.replaceAll("(?s)/\\*.*?\\*/", "");
    Matcher escape = CSS_ESCAPE.matcher(withoutComments);
    var decoded = new StringBuilder();
    while (escape.find()) {
      String replacement;
      if (escape.group(1) != null) {
        int code = Integer.parseInt(escape.group(1), 16);
        replacement = Character.isValidCodePoint(code) && code != 0
            ? new String(Character.toChars(code))
            : "\uFFFD";
      } else {
        replacement = escape.group(2);
      }
      escape.appendReplacement(decoded, Matcher.quoteReplacement(replacement));
    }
    escape.appendTail(decoded);
    return normalUrl(decoded.toString());
  }

  private static int line(Range range) {
    return range.isTracked() ? range.start().lineNumber() : 1;
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) if (text.charAt(i) == '\n') line++;
    return line;
  }

  private static String shorten(String text) {
    return text.length() > 80 ? text.substring(0, 77) + "..." : text;
  }
}
