package dev.tidings.cli;

import dev.tidings.app.Node;

/** What an operator needs to see once a node is up: where it is and how to call it. */
final class Banner {
  private Banner() {}

  static void print(Node node, int port) {
    var settings = node.settings();
    String url = "http://localhost:" + port;
    System.out.println();
    System.out.println("Tidings is running at " + url + "/");
    System.out.println("  API key    " + node.apiKey().value()
        + (settings.apiKey().isPresent()
            ? "  (TIDINGS_API_KEY)"
            : "  (kept in " + settings.dataDir().resolve("api-key") + ")"));
    System.out.println("  health     " + url + "/health");
    System.out.println("  metrics    " + url + "/metrics");
    System.out.println("  API docs   " + url + "/api/v1/openapi.json");
    System.out.println("  try        curl -H 'Authorization: Bearer "
        + node.apiKey().value() + "' '" + url + "/api/v1/products?limit=3'");
    settings.describe().forEach((name, value) -> {
      // --port wins over TIDINGS_PORT; show what is in force
      String shown = name.equals("TIDINGS_PORT") ? Integer.toString(port) : value;
      System.out.println("  " + String.format("%-24s %s", name, shown));
    });
    System.out.println("Press Ctrl-C to stop.");
    System.out.flush();
  }
}
