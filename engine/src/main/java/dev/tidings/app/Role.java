package dev.tidings.app;

/**
 * What a long-running node does. Every role serves health and metrics; they differ only in which of
 * the capabilities' groups they start: route groups (the API and email endpoints), consumer groups
 * (queue workers), or both.
 */
public enum Role {
  /** An HTTP node: every capability's routes. */
  SERVE(true, false, "serve"),
  /**
   * {@code serve} on the embedded database: no other node can reach that database, so no worker could
   * take its queues (sending, receipts, counting, events) and this node works them itself.
   */
  SERVE_ALONE(true, true, "serve and worker"),
  /** A queue-consuming node: every capability's consumers; HTTP for health and metrics only. */
  WORKER(false, true, "worker"),
  /** Everything in one process. */
  DEMO(true, true, "demo");

  private final boolean routes;
  private final boolean consumers;
  private final String label;

  Role(boolean routes, boolean consumers, String label) {
    this.routes = routes;
    this.consumers = consumers;
    this.label = label;
  }

  /** The role a node asked for {@code requested} takes on a database that is or is not embedded. */
  public static Role on(Role requested, boolean embeddedDatabase) {
    return requested == SERVE && embeddedDatabase ? SERVE_ALONE : requested;
  }

  /** How the node's banner names it. */
  public String label() {
    return label;
  }

  public boolean startsRoutes() {
    return routes;
  }

  public boolean startsConsumers() {
    return consumers;
  }
}
