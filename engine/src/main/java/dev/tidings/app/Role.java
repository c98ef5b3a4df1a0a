package dev.tidings.app;

/**
 * What a long-running node does. Every role serves health and metrics; they differ only in which of
 * the capabilities' groups they start: route groups (the API and email endpoints), consumer groups
 * (queue workers), or both.
 */
public enum Role {
  /** An HTTP node: every capability's routes. */
  SERVE(true, false),
  /** A queue-consuming node: every capability's consumers; HTTP for health and metrics only. */
  WORKER(false, true),
  /** Everything in one process. */
  DEMO(true, true);

  private final boolean routes;
  private final boolean consumers;

  Role(boolean routes, boolean consumers) {
    this.routes = routes;
    this.consumers = consumers;
  }

  public boolean startsRoutes() {
    return routes;
  }

  public boolean startsConsumers() {
    return consumers;
  }
}
