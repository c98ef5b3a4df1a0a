package dev.tidings.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The command line as a user meets it: exit statuses and what it prints. */
class CliTest {
  @TempDir
  Path dataDir;

  record Run(int status, String out, String err) {}

  private Run run(Map<String, String> environment, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int status = TidingsCommand.run(environment, args);
      return new Run(
          status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
  }

  /** The commands configure logging for a real run; later tests in this JVM get the test defaults back. */
  @AfterAll
  static void restoreTestLogging() throws Exception {
    var context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  private Map<String, String> embedded() {
    return Map.of("TIDINGS_DATA_DIR", dataDir.toString());
  }

  @Test
  void no_command_is_a_usage_error() {
    var run = run(embedded());
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("a command is required");
  }

  @Test
  void an_unknown_command_or_kind_is_a_usage_error() {
    assertThat(run(embedded(), "frobnicate").status()).isEqualTo(2);
    var kind = run(embedded(), "import", "widgets", "x.csv");
    assertThat(kind.status()).isEqualTo(2);
    assertThat(kind.err()).contains("widgets");
  }

  @Test
  void a_bad_setting_is_a_usage_error_that_names_it() {
    var run =
        run(Map.of("TIDINGS_PORT", "eighty", "TIDINGS_DATA_DIR", dataDir.toString()), "migrate");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("TIDINGS_PORT: not a whole number: eighty");
  }

  @Test
  void importing_a_missing_file_is_a_usage_error() {
    var run = run(embedded(), "import", "products", dataDir.resolve("nope.csv").toString());
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("no such file");
  }

  @Test
  void a_bench_needs_a_scenario_and_sensible_sizes() {
    var none = run(embedded(), "bench");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err()).contains("import or events");
    var events = run(embedded(), "bench", "events", "--batch", "0");
    assertThat(events.status()).isEqualTo(2);
    assertThat(events.err()).contains("--batch must be at least 1");
  }

  @Test
  void import_reports_bad_rows_by_line_and_exits_1_then_0_for_a_clean_file() throws Exception {
    Path mixed = dataDir.resolve("mixed.csv");
    Files.writeString(mixed, """
        id,title,price,currency,imageUrl,landingUrl
        c-1,Good,1.00,EUR,https://i.example/1.png,https://s.example/1
        c-2,Bad,free,EUR,https://i.example/2.png,https://s.example/2
        """);
    var first = run(embedded(), "import", "products", mixed.toString());
    assertThat(first.status()).isEqualTo(1);
    assertThat(first.out())
        .contains("1 imported")
        .contains("1 rejected")
        .contains("line 3:")
        .contains("committed.");

    Path clean = dataDir.resolve("clean.jsonl");
    Files.writeString(clean, """
        {"id":"c-3","title":"Fine","price":"2.50","currency":"GBP","imageUrl":"https://i.example/3.png","landingUrl":"https://s.example/3"}
        """);
    var second = run(embedded(), "import", "products", clean.toString(), "--all-or-nothing");
    assertThat(second.status()).isZero();
    assertThat(second.out()).contains("1 imported").contains("0 rejected");
  }
}
