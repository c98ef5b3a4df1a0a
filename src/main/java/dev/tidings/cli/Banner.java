package dev.tidings.cli;

import dev.tidings.app.Node;
import dev.tidings.app.Role;
import java.util.Locale;

/** What an operator needs to see once a node is up: where it is and how to call it. */
final class Banner {
  private Banner() {}

  static void print(Node node, Role role) {
    var settings = node.settings();
    int port = node.port();
    String apiKey = node.infrastructure().apiKey().value();
    String url = "http://localhost:" + port;
    System.out.println();
    System.out.println(
        "Tidings " + role.name().toLowerCase(Locale.ROOT) + " node is running at " + url + "/");
    if (role.startsRoutes()) {
      System.out.println("  API key    " + apiKey
          + (settings.apiKey().isPresent()
              ? "  (TIDINGS_API_KEY)"
              : "  (kept in " + settings.dataDir().resolve("api-key") + ")"));
    }
    System.out.println("  health     " + url + "/health");
    System.out.println("  metrics    " + url + "/metrics");
    if (role.startsRoutes()) {
      System.out.println("  API docs   " + url + "/api/v1/openapi.json");
      System.out.println("  try        curl -H 'Authorization: Bearer " + apiKey + "' '" + url
          + "/api/v1/products?limit=3'");
    }
    if (role.startsConsumers()) {
      var queues = node.consumedQueues();
      System.out.println("  consuming  "
          + (queues.isEmpty()
              ? "no queues (no capability registers consumers yet)"
              : String.join(", ", queues)));
    }
    settings.describe().forEach((name, value) -> {
      // --port wins over TIDINGS_PORT; show what is in force
      String shown = name.equals("TIDINGS_PORT") ? Integer.toString(port) : value;
      System.out.println("  " + String.format("%-24s %s", name, shown));
    });
    System.out.println("Press Ctrl-C to stop.");
    System.out.flush();
  }
}
