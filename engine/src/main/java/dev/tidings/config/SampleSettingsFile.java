package dev.tidings.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The release's {@code config/tidings.properties}: every setting of {@link SettingsCatalog}, commented
 * out, with what it means and its default. It is written from the catalogue when the release is built
 * ({@code java -cp tidings.jar dev.tidings.config.SampleSettingsFile FILE}), so it cannot fall behind
 * it. Secrets are shown empty: a sample must never suggest a value for one.
 */
public final class SampleSettingsFile {
  private static final int WIDTH = 100;

  private static final String HEADER = """
      # Tidings settings. A node reads this file when TIDINGS_CONFIG names it (the systemd units name
      # /etc/tidings/tidings.properties); an environment variable of the same name wins over it.
      # Every setting is listed, commented out, with its default: uncomment a line to change one.
      # Secrets are left empty; keep this file readable by the tidings user only (root:tidings, 0640).
      # TIDINGS_CONFIG itself is read from the environment only.
      """;

  private SampleSettingsFile() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: SampleSettingsFile FILE");
      System.exit(2);
    }
    Files.writeString(Path.of(args[0]), text());
  }

  public static String text() {
    var out = new StringBuilder(HEADER);
    for (Setting setting : SettingsCatalog.ALL) {
      if (setting.equals(SettingsCatalog.CONFIG)) continue;
      out.append('\n');
      out.append("# ")
          .append(setting.name())
          .append(" (")
          .append(setting.kindShown())
          .append(")\n");
      for (String line : wrap(plain(setting.meaning())))
        out.append("# ").append(line).append('\n');
      out.append("# default: ").append(plain(setting.defaultShown())).append('\n');
      out.append('#').append(setting.name()).append('=').append(value(setting)).append('\n');
    }
    return out.toString();
  }

  /**
   * The default when it is a value ({@code `16`}, {@code `1048576` (1 MiB)}), not a description that
   * starts with one ({@code `.eml` files in ...}); never a secret's.
   */
  private static String value(Setting setting) {
    if (setting.secret()) return "";
    return setting
        .literalDefault()
        .filter(literal -> {
          String rest = setting.defaultShown().substring(literal.length() + 2);
          return rest.isEmpty() || rest.startsWith(" (");
        })
        .orElse("");
  }

  /** The catalogue's text is Markdown for the README; the backticks are noise in a properties file. */
  private static String plain(String markdown) {
    return markdown.replace("`", "");
  }

  private static List<String> wrap(String text) {
    var lines = new ArrayList<String>();
    var line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > WIDTH - 2) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) line.append(' ');
      line.append(word);
    }
    if (line.length() > 0) lines.add(line.toString());
    return lines;
  }
}
