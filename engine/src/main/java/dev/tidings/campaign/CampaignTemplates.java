package dev.tidings.campaign;

import com.github.mustachejava.Mustache;
import com.github.mustachejava.MustacheException;
import com.github.mustachejava.SafeMustacheFactory;
import com.github.mustachejava.reflect.ReflectionObjectHandler;
import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.AccessibleObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks and compiles a definition's templates. Every template goes through Mustache.java's
 * {@link SafeMustacheFactory}: variables are HTML-escaped in the HTML part, triple mustaches, {@code
 * {{& }}}, partials and delimiter changes are refused. The subject and text part use the same rules
 * with plain output (they are not HTML). The HTML is checked against an allow-list at this point
 * ({@link EmailHtml}), so that rendering never needs to look at it again: every URL attribute either
 * starts with a literal safe scheme (data after that cannot change it) or is exactly one of the URLs
 * Tidings writes itself.
 */
public final class CampaignTemplates {
  static final Set<String> URL_VARIABLES =
      Set.of("unsubscribeUrl", "pixelUrl", "clickUrl", "imageUrl", "url");

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
    var problems = new Problems();
    for (int i = 0; i < variants.size(); i++) {
      int index = i;
      Compiled compiled = problems.element(
          "experiment.variants[" + i + "]",
          "variant " + variants.get(i).name() + ": ",
          () -> compile(definition.variant(index)));
      if (compiled != null) out.add(compiled);
    }
    problems.throwIfAny();
    return out;
  }

  /** @throws InvalidInputException listing every problem of every template */
  public static Compiled compile(CampaignDefinition definition) {
    List<Problem> problems = new ArrayList<>();
    // a triple mustache or a partial is refused below whatever surrounds it
    if (!UNESCAPED.matcher(definition.html()).find()
        && !PARTIAL.matcher(definition.html()).find())
      EmailHtml.problems("html", definition.html())
          .forEach(problem -> problems.add(Problem.at("html", Problem.Rule.OTHER, problem)));
    Mustache subject = compile("subject", definition.subject(), false, problems);
    Mustache html = compile("html", definition.html(), true, problems);
    Mustache text = compile("text", definition.text(), false, problems);
    if (!problems.isEmpty() || subject == null || html == null || text == null)
      throw InvalidInputException.of(problems);
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

  /** Deeper than any newsletter needs; the template compiler recurses once per level. */
  static final int MAX_SECTION_DEPTH = 32;

  private static final Pattern SECTION_TAG = Pattern.compile("\\{\\{\\s*([#^/])");

  /** How deep {{#...}} / {{^...}} sections nest (delimiter changes are refused, so tags are {{ }}). */
  private static int sectionDepth(String source) {
    int depth = 0;
    int deepest = 0;
    var tags = SECTION_TAG.matcher(source);
    while (tags.find()) {
      depth = tags.group(1).equals("/") ? Math.max(0, depth - 1) : depth + 1;
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  }

  private static @Nullable Mustache compile(
      String which, String source, boolean escaped, List<Problem> found) {
    // every problem of a template is about that template's field
    Consumer<String> problems =
        message -> found.add(Problem.at(which, Problem.Rule.OTHER, message));
    if (UNESCAPED.matcher(source).find()) {
      problems.accept(which + ": triple mustaches {{{ }}} and {{& }} are refused; every variable is"
          + " escaped, write {{name}}");
      return null;
    }
    if (PARTIAL.matcher(source).find()) {
      problems.accept(
          which + ": partials, template inheritance and delimiter changes ({{> }}, {{< }},"
              + " {{$ }}, {{= =}}) are refused");
      return null;
    }
    int depth = sectionDepth(source);
    if (depth > MAX_SECTION_DEPTH) {
      problems.accept(which + ": sections nested " + depth + " deep; at most " + MAX_SECTION_DEPTH
          + " are allowed");
      return null;
    }
    try {
      var factory = new Factory(escaped);
      return factory.compile(new StringReader(source), which);
    } catch (MustacheException e) {
      problems.accept(which + ": not a valid template: " + e.getMessage());
      return null;
    }
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
