package dev.tidings.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.CommandRuns;
import dev.tidings.testing.CommandRuns.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tools' commands as a user meets them: exit statuses and what they print. */
class ToolsCliTest {
  @TempDir
  Path dataDir;

  private Run run(Map<String, String> environment, String... args) {
    return CommandRuns.capture(() -> ToolsMain.run(environment, args));
  }

  @AfterAll
  static void restoreTestLogging() throws Exception {
    CommandRuns.restoreTestLogging();
  }

  private Map<String, String> embedded() {
    return Map.of("TIDINGS_DATA_DIR", dataDir.toString());
  }

  @Test
  void evaluate_prints_one_table_for_both_settings_from_an_events_file() throws Exception {
    var lines = new StringBuilder();
    String[] items = {"tea", "soap", "jam", "bread", "milk"};
    for (int user = 0; user < 6; user++) {
      for (int day = 1; day <= 3; day++) {
        String time = "2025-03-0" + day + "T10:00:00Z";
        lines.append(event("u" + user, "tea", time));
        lines.append(event("u" + user, items[(user + day) % items.length], time));
      }
    }
    lines.append("{\"userId\":\"u0\",\"type\":\"view\",\"itemId\":\"jam\","
        + "\"timestamp\":\"2025-03-04T10:00:00Z\"}\n");
    Path file = Files.writeString(dataDir.resolve("events.jsonl"), lines);
    Path json = dataDir.resolve("report.json");
    var run = run(
        embedded(),
        "evaluate",
        "--interactions",
        file.toString(),
        "--format",
        "events",
        "--json",
        json.toString());
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("6 users tested")
        .contains("| algorithm | bought items | users | HR@10 | NDCG@10")
        .contains("| buy-again | kept | 6 |")
        .contains("| blend | excluded |")
        .contains("| popularity | kept |");
    assertThat(json).content().contains("\"testedUsers\" : 6");
    assertThat(dataDir.resolve("pg")).doesNotExist();
  }

  private static String event(String user, String item, String time) {
    return "{\"userId\":\"" + user + "\",\"type\":\"purchase\",\"itemId\":\"" + item
        + "\",\"timestamp\":\"" + time + "\"}\n";
  }

  @Test
  void evaluate_refuses_an_unknown_format_and_a_missing_file() {
    var format = run(embedded(), "evaluate", "--interactions", "x.csv", "--format", "xls");
    assertThat(format.status()).isEqualTo(2);
    assertThat(format.err()).contains("--format must be online-retail or events but was xls");
    var missing = run(
        embedded(), "evaluate", "--interactions", dataDir.resolve("none.csv").toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).contains("no such file");
    var noFile = run(embedded(), "evaluate");
    assertThat(noFile.status()).isEqualTo(2);
    assertThat(noFile.err()).contains("--interactions is required");
    var window = run(embedded(), "evaluate", "send-time", "--within", "PT30M");
    assertThat(window.status()).isEqualTo(2);
    assertThat(window.err()).contains("--within within PT1H..P7D");
  }

  @Test
  void a_bench_needs_a_scenario_and_sensible_sizes() {
    var none = run(embedded(), "bench");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err())
        .contains(
            "import, events, compute-once, queue, open-burst, render, send, send-time, delivery,"
                + " event-relay, journeys,"
                + " recommend, optimize, retention or startup");
    var sendTime = run(embedded(), "bench", "send-time", "--history-share", "2");
    assertThat(sendTime.status()).isEqualTo(2);
    assertThat(sendTime.err()).contains("--history-share within 0..1");
    var send = run(embedded(), "bench", "send", "--backend", "nowhere");
    assertThat(send.status()).isEqualTo(2);
    assertThat(send.err()).contains("--backend must be embedded, real or both");
    var sendSize = run(embedded(), "bench", "send", "--subscribers", "0");
    assertThat(sendSize.status()).isEqualTo(2);
    assertThat(sendSize.err()).contains("--subscribers, --slots, --senders, --chunk");
    var events = run(embedded(), "bench", "events", "--batch", "0");
    assertThat(events.status()).isEqualTo(2);
    assertThat(events.err()).contains("--batch must be at least 1");
    var computeOnce = run(embedded(), "bench", "compute-once", "--waiters", "0");
    assertThat(computeOnce.status()).isEqualTo(2);
    assertThat(computeOnce.err()).contains("--waiters must be at least 1");
    var recommend = run(embedded(), "bench", "recommend", "--calls", "10");
    assertThat(recommend.status()).isEqualTo(2);
    assertThat(recommend.err()).contains("--calls must be at least 100");
    assertThat(run(embedded(), "bench", "render", "--seconds", "0").status()).isEqualTo(2);
    var retention = run(embedded(), "bench", "retention", "--receipts", "1");
    assertThat(retention.status()).isEqualTo(2);
    assertThat(retention.err()).contains("--receipts at least 2");
  }

  @Test
  void open_burst_refuses_bad_options_before_starting_anything() {
    for (String slots : new String[] {"0", "13"}) {
      var run = run(embedded(), "bench", "open-burst", "--slots", slots);
      assertThat(run.status()).isEqualTo(2);
      assertThat(run.err()).contains("--slots must be between 1 and 12 but was " + slots);
    }
    var strategy = run(embedded(), "bench", "open-burst", "--strategy", "fastest");
    assertThat(strategy.status()).isEqualTo(2);
    assertThat(strategy.err()).contains("--strategy must be tidings, seed or both but was fastest");
    var emails = run(embedded(), "bench", "open-burst", "--emails", "0");
    assertThat(emails.status()).isEqualTo(2);
    assertThat(emails.err()).contains("--emails must be at least 1");
    var noJar = run(
        embedded(), "bench", "open-burst", "--jar", dataDir.resolve("none.jar").toString());
    assertThat(noJar.status()).isEqualTo(2);
    assertThat(noJar.err()).contains("none.jar is not there");
  }

  @Test
  void the_benchmark_node_refuses_an_unknown_role_or_strategy() {
    var role = run(embedded(), "bench", "node", "--role", "dancer");
    assertThat(role.status()).isEqualTo(2);
    assertThat(role.err()).contains("--role must be serve or worker but was dancer");
    var slots = run(embedded(), "bench", "node", "--slots", "fastest");
    assertThat(slots.status()).isEqualTo(2);
    assertThat(slots.err()).contains("--slots must be tidings or seed but was fastest");
    var seed = run(embedded(), "bench", "node", "--slots", "seed");
    assertThat(seed.status()).isEqualTo(2);
    assertThat(seed.err()).contains("--slots seed needs TIDINGS_REDIS_URL");
  }
}
