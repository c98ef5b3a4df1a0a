package dev.tidings.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import dev.tidings.config.Settings;
import dev.tidings.config.SettingsLoader;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** What a node prints at start never hands its API key to whoever reads the output or the logs. */
@StartsServers
class BannerTest {
  private static final String KEY = "operator-key-0123456789abcdefXYZ";

  @TempDir
  Path dataDir;

  @AfterAll
  static void restoreTestLogging() throws Exception {
    var context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  private Map<String, String> environment(boolean withKey) {
    var environment = new HashMap<String, String>();
    environment.put("TIDINGS_DATA_DIR", dataDir.toString());
    environment.put(
        "TIDINGS_DB_URL", TestDatabases.embeddedServer().connectionSpec(2).jdbcUrl());
    environment.put("TIDINGS_DB_USER", "postgres");
    environment.put("TIDINGS_DB_PASSWORD", "database-password-shh");
    environment.put("TIDINGS_SECRET", "signing-secret-0123456789abcdef");
    if (withKey) environment.put("TIDINGS_API_KEY", KEY);
    return environment;
  }

  @Test
  @Timeout(120)
  void a_key_given_in_the_environment_is_neither_printed_nor_logged_at_start() {
    var settings = SettingsLoader.load(environment(true));
    var out = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      Logging.configure(Settings.LogFormat.JSON);
      try (var node = Node.of(settings)) {
        node.start(Role.SERVE, 0);
        Banner.print(node, Role.SERVE);
      }
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("node is running at");
    assertThat(printed)
        .doesNotContain(KEY)
        .doesNotContain("database-password-shh")
        .doesNotContain("signing-secret-0123456789abcdef");
    assertThat(printed).contains("Authorization: Bearer $TIDINGS_API_KEY");
  }

  @Test
  void a_generated_key_is_shown_on_a_terminal_only() {
    var settings = SettingsLoader.load(Map.of("TIDINGS_DATA_DIR", dataDir.toString()));
    String generated = "tk_generated0123456789abcdef";
    String piped =
        banner(new Banner.Shown(settings, Role.DEMO, 8080, generated, true, false, List.of()));
    String onTerminal =
        banner(new Banner.Shown(settings, Role.DEMO, 8080, generated, true, true, List.of()));
    String restarted =
        banner(new Banner.Shown(settings, Role.DEMO, 8080, generated, false, true, List.of()));
    assertThat(piped).doesNotContain(generated).contains("kept in " + dataDir.resolve("api-key"));
    assertThat(restarted).doesNotContain(generated);
    assertThat(onTerminal).contains("API key    " + generated);
    assertThat(List.of(piped, onTerminal, restarted))
        .allSatisfy(text -> assertThat(text)
            .contains("Authorization: Bearer $(cat '" + dataDir.resolve("api-key") + "')")
            .doesNotContain("Bearer " + generated));
  }

  private static String banner(Banner.Shown shown) {
    var out = new ByteArrayOutputStream();
    Banner.print(shown, new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}
