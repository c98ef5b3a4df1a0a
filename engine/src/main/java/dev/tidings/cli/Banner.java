package dev.tidings.cli;

import dev.tidings.app.Node;
import dev.tidings.app.Role;
import dev.tidings.config.Settings;
import java.io.Console;
import java.io.PrintStream;
import java.util.List;

/**
 * What an operator needs to see once a node is up: where it is and how to call it. The API key itself
 * is shown only when this start generated it and standard output is a terminal: a key given in {@code
 * TIDINGS_API_KEY} is the operator's already, and output that is piped is most often a log.
 */
public final class Banner {
  private Banner() {}

  /** What the banner shows, gathered from a started node. */
  record Shown(
      Settings settings,
      Role role,
      int port,
      String apiKey,
      boolean apiKeyIsNew,
      boolean terminal,
      List<String> queues) {}

  public static void print(Node node, Role role) {
    print(
        new Shown(
            node.settings(),
            role,
            node.port(),
            node.infrastructure().apiKey().value(),
            node.infrastructure().apiKeyIsNew(),
            onTerminal(),
            role.startsConsumers() ? node.consumedQueues() : List.of()),
        System.out);
  }

  static void print(Shown shown, PrintStream out) {
    var settings = shown.settings();
    int port = shown.port();
    Role role = shown.role();
    String url = "http://localhost:" + port;
    String keyFile = settings.dataDir().resolve("api-key").toString();
    out.println();
    out.println("Tidings " + role.label() + " node is running at " + url + "/");
    if (role.startsRoutes()) {
      String where = settings.apiKey().isPresent() ? "TIDINGS_API_KEY" : "kept in " + keyFile;
      boolean showKey =
          shown.apiKeyIsNew() && shown.terminal() && settings.apiKey().isEmpty();
      out.println("  API key    " + (showKey ? shown.apiKey() + "  (new, " + where + ")" : where));
    }
    out.println("  health     " + url + "/health");
    out.println("  metrics    " + url + "/metrics (with the API key or TIDINGS_METRICS_TOKEN)");
    if (role.startsRoutes()) {
      String key = settings.apiKey().isPresent() ? "$TIDINGS_API_KEY" : "$(cat '" + keyFile + "')";
      out.println("  API docs   " + url + "/api/v1/openapi.json");
      out.println("  try        curl -H \"Authorization: Bearer " + key + "\" '" + url
          + "/api/v1/products?limit=3'");
    }
    if (role.startsConsumers()) {
      var queues = shown.queues();
      out.println("  consuming  "
          + (queues.isEmpty()
              ? "no queues (no capability registers consumers yet)"
              : String.join(", ", queues)));
    }
    settings.describe().forEach((name, value) -> {
      // --port wins over TIDINGS_PORT; show what is in force
      String text = name.equals("TIDINGS_PORT") ? Integer.toString(port) : value;
      out.println("  " + String.format("%-24s %s", name, text));
    });
    out.println("Press Ctrl-C to stop.");
    out.flush();
  }

  /** A console whose output is a terminal (JDK 22-24 return a console for pipes too). */
  @SuppressWarnings("SystemConsoleNull") // the null check is for JDK 25, isTerminal() for 22-24
  private static boolean onTerminal() {
    Console console = System.console();
    return console != null && console.isTerminal();
  }
}
