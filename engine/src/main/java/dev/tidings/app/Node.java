package dev.tidings.app;

import dev.tidings.config.Settings;
import dev.tidings.jobs.Election;
import dev.tidings.queue.postgres.DeadLetterExpiry;
import dev.tidings.retention.Expiring;
import dev.tidings.retention.Retention;
import dev.tidings.storage.AdvisoryLock;
import dev.tidings.storage.StoredRowRepair;
import dev.tidings.web.HttpServer;
import dev.tidings.web.RouteGroup;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Tidings process: its {@link Infrastructure} and its capabilities. Opening a node opens no
 * server; a command asks for the capability it uses ({@link #capability}), which opens what that
 * capability needs, or starts a long-running {@link Role}. Closing it stops what was started (HTTP
 * first, then consumers), then closes the servers.
 */
public final class Node implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Node.class);

  private final Infrastructure infrastructure;
  private final List<Capability> capabilities;
  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private @Nullable HttpServer server;
  private @Nullable Workers workers;

  Node(Infrastructure infrastructure, Function<Infrastructure, List<Capability>> capabilities) {
    this.infrastructure = infrastructure;
    this.capabilities = List.copyOf(capabilities.apply(infrastructure));
  }

  /** A node with every capability, on the servers {@code settings} name; nothing is opened yet. */
  public static Node of(Settings settings) {
    return of(settings, NodeAdditions.NONE);
  }

  /** A node with every capability and what a program built on the engine adds to it. */
  public static Node of(Settings settings, NodeAdditions additions) {
    return new Node(
        new Infrastructure(settings), infrastructure -> Capabilities.of(infrastructure, additions));
  }

  public Infrastructure infrastructure() {
    return infrastructure;
  }

  public Settings settings() {
    return infrastructure.settings();
  }

  /** The wiring of one capability, e.g. {@code capability(CatalogWiring.class).catalog()}. */
  public <T extends Capability> T capability(Class<T> type) {
    for (Capability capability : capabilities) {
      if (type.isInstance(capability)) return type.cast(capability);
    }
    throw new IllegalArgumentException("no capability " + type.getSimpleName() + " in this node");
  }

  /**
   * Opens every configured server, starts the consumers and serves HTTP on {@code port} (0 picks a
   * free one) as {@code role} says. On any failure, whatever was started or opened is closed again (an
   * embedded PostgreSQL must not outlive a failed start) and the failure is thrown.
   */
  public synchronized void start(Role role, int port) {
    try {
      infrastructure.openAll();
      WorkQueues.registerDepths(infrastructure, infrastructure.metrics());
      started.push(NodeGauges.register(
          infrastructure.metrics(),
          role,
          infrastructure.dependencyChecks(),
          infrastructure.jobs()));
      infrastructure.join(role.name().toLowerCase(Locale.ROOT));
      for (Capability capability : capabilities)
        for (Capability.Background task : capability.background()) started.push(task.start());
      if (role.startsConsumers()) {
        var groups = capabilities.stream().flatMap(c -> c.consumers().stream()).toList();
        var running = Workers.start(infrastructure.workQueue(), groups);
        started.push(running);
        workers = running;
        started.push(infrastructure
            .jobs()
            .start(retention()
                .job(
                    settings().retention().interval(),
                    Election.advisoryLeader(
                        infrastructure.database().jdbi(), AdvisoryLock.RETENTION_RUN))));
      }
      List<RouteGroup> routes = role.startsRoutes()
          ? capabilities.stream().flatMap(c -> c.routes().stream()).toList()
          : List.of();
      var settings = settings();
      var http = HttpServer.start(
          new HttpServer.Options(
              port,
              infrastructure.apiKey(),
              settings.shutdownGrace(),
              settings.bind(),
              settings.metricsToken(),
              Optional.of(infrastructure.authThrottle())),
          infrastructure.metrics(),
          infrastructure.dependencyChecks(),
          routes);
      started.push(http);
      server = http;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * What outlived its lifetime, removed in the background by worker nodes, one at a time: every
   * capability's tables that grow with traffic, and the queue tables' dead letters.
   */
  Retention retention() {
    var expiring = new ArrayList<Expiring>();
    capabilities.forEach(capability -> expiring.addAll(capability.expiring()));
    var retention = settings().retention();
    if (settings().amqpUrl().isEmpty())
      expiring.add(new Expiring(
          DeadLetterExpiry.of(infrastructure.database().jdbi()), retention.deadLetters()));
    return new Retention(
        expiring, infrastructure.clock(), infrastructure.metrics(), retention.batch());
  }

  /**
   * Repairs the rows of every capability's tables that an earlier version stored and today's rules
   * refuse ({@code tidings migrate}); opens the database (migrating it) and nothing else.
   */
  public StoredRowRepairs.Report repairStoredRows() {
    var repairs = new ArrayList<StoredRowRepair>();
    capabilities.forEach(capability -> repairs.addAll(capability.repairs()));
    return new StoredRowRepairs(repairs, StoredRowRepairs.BATCH).run();
  }

  /** The HTTP port in use, once started. */
  public synchronized int port() {
    if (server == null) throw new IllegalStateException("the node has not been started");
    return server.port();
  }

  /** The queues this node consumes, once started in a role that consumes. */
  public synchronized List<String> consumedQueues() {
    return workers == null ? List.of() : workers.queues();
  }

  @Override
  public synchronized void close() {
    while (!started.isEmpty()) {
      AutoCloseable next = started.pop();
      try {
        next.close();
      } catch (Exception e) {
        log.warn("stopping {} failed", next, e);
      }
    }
    for (Capability capability : capabilities.reversed()) {
      try {
        capability.close();
      } catch (RuntimeException e) {
        log.warn("closing {} failed", capability, e);
      }
    }
    infrastructure.close();
  }
}
