package dev.tidings.campaign;

import com.github.mustachejava.Mustache;
import com.github.mustachejava.MustacheException;
import com.github.mustachejava.SafeMustacheFactory;
import com.github.mustachejava.reflect.ReflectionObjectHandler;
import dev.tidings.InvalidInputException;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.AccessibleObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks and compiles a definition's templates. Every template goes through Mustache.java's
 * {@link SafeMustacheFactory}: variables are HTML-escaped in the HTML part, triple mustaches, {@code
 * {{& }}}, partials and delimiter changes are refused. The subject and text part use the same rules
 * with plain output (they are not HTML). Links in the HTML are allow-listed at this point, so that
 * rendering never needs to look at them again: every URL attribute either starts with a literal
 * {@code http://} or {@code https://} (data after that cannot change the scheme) or is exactly one of
 * the URLs Tidings writes itself ({@value #URL_VARIABLES_TEXT}).
 */
public final class CampaignTemplates {
  static final Set<String> URL_VARIABLES =
      Set.of("unsubscribeUrl", "pixelUrl", "clickUrl", "imageUrl", "url");
  private static final String URL_VARIABLES_TEXT =
      "unsubscribeUrl, pixelUrl, clickUrl, imageUrl, url";

  private static final Pattern URL_ATTRIBUTE = Pattern.compile(
      "(?i)(?<![\\w-])(href|src|action|formaction|background|poster|srcset|xlink:href|cite|longdesc)"
          + "\\s*=\\s*(\"([^\"]*)\"|'([^']*)'|([^\\s>]+))");
  private static final Pattern ONE_VARIABLE = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_.]+)\\s*}}");
  private static final Pattern DANGEROUS = Pattern.compile(
      "(?i)(javascript\\s*:|vbscript\\s*:|data\\s*:\\s*text/html|<\\s*script|<\\s*iframe|<\\s*object|<\\s*embed)");
  private static final Pattern UNESCAPED = Pattern.compile("\\{\\{\\s*[{&]");
  private static final Pattern PARTIAL = Pattern.compile("\\{\\{\\s*[<>=$]");
  private static final Pattern SLOTS_SECTION = Pattern.compile("\\{\\{\\s*#\\s*slots\\s*}}");
  private static final Pattern NOTIFICATIONS_SECTION =
      Pattern.compile("\\{\\{\\s*[#^]\\s*notifications\\s*}}");
  private static final Pattern UNSUBSCRIBE = Pattern.compile("\\{\\{\\s*unsubscribeUrl\\s*}}");

  private CampaignTemplates() {}

  /** A definition's templates, compiled once; {@link Mustache} instances are thread-safe to execute. */
  public record Compiled(
      Mustache subject,
      Mustache html,
      Mustache text,
      boolean htmlPlacesSlots,
      boolean htmlLinksUnsubscribe,
      boolean textPlacesSlots,
      boolean textLinksUnsubscribe,
      boolean htmlPlacesNotifications,
      boolean textPlacesNotifications) {}

  /**
   * The templates of every variant of the definition's experiment, control first (just the
   * definition's own when it has none).
   *
   * @throws InvalidInputException listing every problem of every template, each variant's named
   */
  public static List<Compiled> compileVariants(CampaignDefinition definition) {
    if (definition.experiment().isEmpty()) return List.of(compile(definition));
    var variants = definition.experiment().get().variants();
    List<Compiled> out = new ArrayList<>(variants.size());
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < variants.size(); i++) {
      try {
        out.add(compile(definition.variant(i)));
      } catch (InvalidInputException e) {
        String name = variants.get(i).name();
        e.problems().forEach(problem -> problems.add("variant " + name + ": " + problem));
      }
    }
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return out;
  }

  /** @throws InvalidInputException listing every problem of every template */
  public static Compiled compile(CampaignDefinition definition) {
    List<String> problems = new ArrayList<>();
    checkLinks(definition.html(), problems);
    Mustache subject = compile("subject", definition.subject(), false, problems);
    Mustache html = compile("html", definition.html(), true, problems);
    Mustache text = compile("text", definition.text(), false, problems);
    if (!problems.isEmpty() || subject == null || html == null || text == null)
      throw new InvalidInputException(problems);
    return new Compiled(
        subject,
        html,
        text,
        SLOTS_SECTION.matcher(definition.html()).find(),
        UNSUBSCRIBE.matcher(definition.html()).find(),
        SLOTS_SECTION.matcher(definition.text()).find(),
        UNSUBSCRIBE.matcher(definition.text()).find(),
        NOTIFICATIONS_SECTION.matcher(definition.html()).find(),
        NOTIFICATIONS_SECTION.matcher(definition.text()).find());
  }

  private static @Nullable Mustache compile(
      String which, String source, boolean escaped, List<String> problems) {
    if (UNESCAPED.matcher(source).find()) {
      problems.add(which + ": triple mustaches {{{ }}} and {{& }} are refused; every variable is"
          + " escaped, write {{name}}");
      return null;
    }
    if (PARTIAL.matcher(source).find()) {
      problems.add(which + ": partials, template inheritance and delimiter changes ({{> }}, {{< }},"
          + " {{$ }}, {{= =}}) are refused");
      return null;
    }
    try {
      var factory = new Factory(escaped);
      return factory.compile(new StringReader(source), which);
    } catch (MustacheException e) {
      problems.add(which + ": not a valid template: " + e.getMessage());
      return null;
    }
  }

  private static void checkLinks(String html, List<String> problems) {
    Matcher dangerous = DANGEROUS.matcher(html);
    if (dangerous.find())
      problems.add("html: '" + dangerous.group(1).toLowerCase(Locale.ROOT)
          + "' is refused: links must be http(s) and an email carries no scripts");
    Matcher attribute = URL_ATTRIBUTE.matcher(html);
    while (attribute.find()) {
      String value = attribute.group(3) != null
          ? attribute.group(3)
          : attribute.group(4) != null ? attribute.group(4) : attribute.group(5);
      String link = value.strip();
      String lower = link.toLowerCase(Locale.ROOT);
      if (lower.startsWith("https://") || lower.startsWith("http://")) continue;
      Matcher variable = ONE_VARIABLE.matcher(link);
      if (variable.matches() && URL_VARIABLES.contains(variable.group(1))) continue;
      problems.add("html: " + attribute.group(1) + "=\"" + shorten(link) + "\" is refused: a link"
          + " must start with http:// or https://, or be one of {{" + URL_VARIABLES_TEXT + "}}");
    }
  }

  private static String shorten(String text) {
    return text.length() > 80 ? text.substring(0, 77) + "..." : text;
  }

  /**
   * The safe factory's rules, HTML-escaped or plain output, and an object handler that reads map keys
   * and nothing else. The safe factory's own handler looks every name up by reflection on every use
   * (a dotted name cost about 7 us); this one keeps Mustache.java's cached, guarded lookups but finds
   * no method or field on any object, so a template can reach only the values Tidings put in its scope.
   */
  private static final class Factory extends SafeMustacheFactory {
    private final boolean escaped;

    Factory(boolean escaped) {
      super(Set.of(), "");
      this.escaped = escaped;
      setObjectHandler(new MapKeysOnly());
    }

    @Override
    public void encode(String value, Writer writer) {
      if (escaped) {
        super.encode(value, writer);
        return;
      }
      try {
        writer.write(value);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static final class MapKeysOnly extends ReflectionObjectHandler {
    @Override
    protected @Nullable AccessibleObject findMember(Class sClass, String name) {
      return null;
    }

    @Override
    protected boolean areMethodsAccessible(Map<?, ?> map) {
      return false;
    }
  }
}
