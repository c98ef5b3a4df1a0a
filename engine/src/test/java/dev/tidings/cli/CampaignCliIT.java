package dev.tidings.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.CommandRuns;
import dev.tidings.testing.CommandRuns.Run;
import dev.tidings.testing.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tidings campaign ...} against the real PostgreSQL, as a user runs it. */
class CampaignCliIT {
  @TempDir
  Path dataDir;

  private Run run(String... args) {
    RealServers.requirePostgres();
    var environment = Map.of(
        "TIDINGS_DATA_DIR", dataDir.toString(), "TIDINGS_DB_URL", RealServers.postgresJdbcUrl());
    return CommandRuns.capture(() -> TidingsCommand.run(environment, args));
  }

  @AfterAll
  static void restoreTestLogging() throws Exception {
    CommandRuns.restoreTestLogging();
  }

  @Test
  void create_from_a_file_and_options_then_show_list_and_send() throws Exception {
    Path file = dataDir.resolve("campaign.json");
    Files.writeString(file, """
        {"name":"From a file","from":"news@shop.example","subject":"Hi {{subscriber.firstName}}",
         "html":"<p>Hello</p>","text":"Hello","slots":6}""");
    String name = "cli-" + System.nanoTime();
    var created =
        run("campaign", "create", "--file", file.toString(), "--name", name, "--priority", "2");
    assertThat(created.status()).as(created.err()).isEqualTo(0);
    var matcher =
        Pattern.compile("created campaign (\\d+) \\(DRAFT\\) " + name).matcher(created.out());
    assertThat(matcher.find()).as(created.out()).isTrue();
    String id = matcher.group(1);

    var shown = run("campaign", "show", id);
    assertThat(shown.status()).isEqualTo(0);
    assertThat(shown.out()).contains("DRAFT").contains(name).contains("slots=6 priority=2");
    assertThat(run("campaign", "status", id).out()).isEqualTo(shown.out());
    assertThat(run("campaign", "list", "--limit", "1000").out()).contains(name);

    var send = run("campaign", "send", id, "--no-wait");
    assertThat(send.status()).as(send.err()).isEqualTo(0);
    assertThat(send.out()).containsPattern("campaign " + id + ": run \\d+ started");
    assertThat(run("campaign", "show", id).out()).doesNotContain("DRAFT");
  }

  @Test
  void invalid_campaigns_and_unknown_ids_are_usage_errors() {
    var invalid = run("campaign", "create", "--name", "x", "--subject", "{{{name}}}");
    assertThat(invalid.status()).isEqualTo(2);
    assertThat(invalid.err()).contains("missing required field 'from'");
    var triple = run(
        "campaign",
        "create",
        "--name",
        "x",
        "--from",
        "a@shop.example",
        "--subject",
        "{{{x}}}",
        "--html",
        "missing.html");
    assertThat(triple.status()).isEqualTo(2);
    assertThat(triple.err()).contains("no such file: missing.html");
    var unknown = run("campaign", "show", "987654321");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err()).contains("no campaign with id 987654321");
  }
}
