package dev.tidings.web.dashboard;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.MustacheFactory;
import java.io.StringWriter;

/**
 * The dashboard's page templates, {@code web/dashboard/NAME.mustache} on the class path, each compiled
 * once. Every {@code {{value}}} is HTML-escaped; a page uses {@code {{{value}}}} only for text it made
 * safe itself (the JSON a chart reads). A template names its parts with partials ({@code {{> bars}}}).
 */
final class Templates {
  private static final MustacheFactory FACTORY = new DefaultMustacheFactory("web/dashboard");

  private Templates() {}

  static String render(String name, Object scope) {
    var out = new StringWriter();
    FACTORY.compile(name + ".mustache").execute(out, scope);
    return out.toString();
  }
}
