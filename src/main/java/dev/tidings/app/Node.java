package dev.tidings.app;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.RateLimiter;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.coordination.redis.RedisCoordination;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.outbox.OutboxMailTransport;
import dev.tidings.mail.smtp.SmtpMailTransport;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.storage.EmbeddedPostgresServer;
import dev.tidings.web.DependencyCheck;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Tidings node: the adapters chosen by {@link Settings} (embedded or real) and the
 * capabilities built on them. The only class that knows every adapter; commands and the HTTP edge
 * ask it for what they need. Closing it closes everything in reverse order of opening.
 */
public final class Node implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Node.class);

  private final Settings settings;
  private final InstantSource clock = InstantSource.system();
  private final PrometheusMeterRegistry metrics =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Deque<AutoCloseable> opened;
  private final List<DependencyCheck> checks = new ArrayList<>();
  private final Database database;
  private final Secret secret;
  private final DataDirSecrets.Generated apiKey;
  private final ComputeOnce computeOnce;
  private final Countdown countdown;
  private final RateLimiter rateLimiter;
  private final MailTransport mail;
  private final WorkQueue queue;
  private final CatalogService catalog;
  private final SubscriberService subscribers;
  private final FollowService follows;
  private final SuppressionService suppressions;
  private final ActivityIntake activity;

  private Node(Settings settings, Deque<AutoCloseable> opened) {
    this.settings = settings;
    this.opened = opened;
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmGcMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ClassLoaderMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
    this.secret = settings
        .secret()
        .orElseGet(() -> DataDirSecrets.loadOrCreate(settings.dataDir().resolve("secret"), "", 32)
            .secret());
    this.apiKey = settings
        .apiKey()
        .map(key -> new DataDirSecrets.Generated(key, false))
        .orElseGet(
            () -> DataDirSecrets.loadOrCreate(settings.dataDir().resolve("api-key"), "tk_", 24));
    this.database = openDatabase();
    checks.add(new DependencyCheck("postgresql", database.describe(), database::problem));
    if (settings.redisUrl().isPresent()) {
      var redis = RedisCoordination.connect(settings.redisUrl().get());
      opened.push(redis);
      checks.add(new DependencyCheck(
          "redis", Settings.maskUserInfo(settings.redisUrl().get()), redis::problem));
      this.computeOnce = redis.computeOnce();
      this.countdown = redis.countdown();
      this.rateLimiter = redis.rateLimiter();
    } else {
      this.computeOnce = InProcessCoordination.computeOnce(clock);
      this.countdown = InProcessCoordination.countdown(clock);
      this.rateLimiter = InProcessCoordination.rateLimiter(clock);
    }
    this.mail = settings
        .smtpUrl()
        .<MailTransport>map(url -> SmtpMailTransport.fromUrl(url, clock))
        .orElseGet(() -> new OutboxMailTransport(settings.outboxDir(), clock));
    opened.push(mail);
    checks.add(new DependencyCheck("mail", mail.describe(), mail::problem));
    if (settings.amqpUrl().isPresent()) {
      var rabbit = RabbitWorkQueue.connect(settings.amqpUrl().get());
      opened.push(rabbit);
      checks.add(new DependencyCheck(
          "rabbitmq", Settings.maskUserInfo(settings.amqpUrl().get()), rabbit::problem));
      this.queue = rabbit;
    } else {
      var tables = new PostgresWorkQueue(database);
      opened.push(tables);
      this.queue = tables;
    }
    this.catalog = new CatalogService(database.jdbi(), clock);
    this.subscribers = new SubscriberService(database.jdbi(), clock);
    this.follows = new FollowService(database.jdbi(), clock);
    this.suppressions = new SuppressionService(database.jdbi(), clock);
    this.activity = new ActivityIntake(database.jdbi(), clock);
  }

  /**
   * Opens every adapter the settings ask for and applies database migrations; on any failure, closes
   * whatever was already opened (an embedded PostgreSQL must not outlive a failed start).
   */
  public static Node start(Settings settings) {
    var opened = new ArrayDeque<AutoCloseable>();
    try {
      var node = new Node(settings, opened);
      node.database.migrate();
      return node;
    } catch (RuntimeException e) {
      closeAll(opened);
      throw e;
    }
  }

  private Database openDatabase() {
    if (settings.embeddedDatabase()) {
      var directory = settings.dataDir().resolve("pg");
      log.info("starting the embedded PostgreSQL in {}", directory);
      var server = EmbeddedPostgresServer.start(directory);
      var database =
          Database.connect(server.connectionSpec(settings.dbPoolSize()), server, metrics);
      opened.push(database);
      return database;
    }
    var database = Database.connect(
        ConnectionSpec.from(settings, settings.dbUrl().orElseThrow()), () -> {}, metrics);
    opened.push(database);
    return database;
  }

  public Settings settings() {
    return settings;
  }

  public InstantSource clock() {
    return clock;
  }

  public PrometheusMeterRegistry metrics() {
    return metrics;
  }

  public Database database() {
    return database;
  }

  public Secret secret() {
    return secret;
  }

  public Secret apiKey() {
    return apiKey.secret();
  }

  /** True when this start generated the API key, so the operator must be shown it. */
  public boolean apiKeyIsNew() {
    return apiKey.isNew();
  }

  public ComputeOnce computeOnce() {
    return computeOnce;
  }

  public Countdown countdown() {
    return countdown;
  }

  public RateLimiter rateLimiter() {
    return rateLimiter;
  }

  public MailTransport mail() {
    return mail;
  }

  public WorkQueue queue() {
    return queue;
  }

  public CatalogService catalog() {
    return catalog;
  }

  public SubscriberService subscribers() {
    return subscribers;
  }

  public FollowService follows() {
    return follows;
  }

  public SuppressionService suppressions() {
    return suppressions;
  }

  public ActivityIntake activity() {
    return activity;
  }

  public List<DependencyCheck> dependencyChecks() {
    return List.copyOf(checks);
  }

  @Override
  public void close() {
    closeAll(opened);
  }

  private static void closeAll(Deque<AutoCloseable> opened) {
    while (!opened.isEmpty()) {
      AutoCloseable next = opened.pop();
      try {
        next.close();
      } catch (Exception e) {
        log.warn("closing {} failed", next, e);
      }
    }
  }
}
