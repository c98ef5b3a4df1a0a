package dev.tidings.app;

import dev.tidings.TidingsException;
import dev.tidings.cluster.NodeRegistry;
import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import dev.tidings.coordination.Coordination;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.coordination.postgres.PostgresCountdown;
import dev.tidings.coordination.redis.RedisCoordination;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.mail.CountedMailTransport;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.outbox.OutboxMailTransport;
import dev.tidings.mail.smtp.SmtpMailTransport;
import dev.tidings.mail.smtp.SmtpSettings;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitQueueType;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.storage.EmbeddedPostgresServer;
import dev.tidings.web.AuthThrottle;
import dev.tidings.web.DependencyCheck;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers a node talks to, chosen by {@link Settings} (embedded or real), each opened the first
 * time something asks for it: {@code tidings migrate} opens only the database, and an import never
 * needs Redis or RabbitMQ to be up. The only class that knows the adapters. Closing it closes what
 * was opened, newest first.
 */
public final class Infrastructure implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Infrastructure.class);

  private final Settings settings;
  private final InstantSource clock;
  private final PrometheusMeterRegistry metrics =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private final List<DependencyCheck> checks = new ArrayList<>();
  private @Nullable Database readDatabase;
  private @Nullable Secret secret;
  private DataDirSecrets.@Nullable Generated apiKey;
  private @Nullable AuthThrottle authThrottle;
  private @Nullable Database database;
  private @Nullable Coordination coordination;
  private @Nullable WorkQueue workQueue;
  private @Nullable MailTransport mail;
  private @Nullable NodeRegistry nodeRegistry;
  private @Nullable BackgroundJobs jobs;

  public Infrastructure(Settings settings) {
    this(settings, InstantSource.system());
  }

  public Infrastructure(Settings settings, InstantSource clock) {
    this.settings = settings;
    this.clock = clock;
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmGcMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ClassLoaderMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
  }

  public Settings settings() {
    return settings;
  }

  public InstantSource clock() {
    return clock;
  }

  /** This node among the installation's nodes, once it started in a role; closed with it. */
  synchronized void join(String role) {
    if (nodeRegistry != null) return;
    String host = hostName();
    var database = database();
    var joined =
        open(() -> NodeRegistry.join(database.jdbi(), clock, role, NodeGauges.version(), host));
    nodeRegistry = joined;
    open(() -> jobs().start(joined.beats()));
  }

  /** The node's background jobs, each stopped with it. */
  public synchronized BackgroundJobs jobs() {
    if (jobs == null) jobs = open(() -> new BackgroundJobs(metrics, clock));
    return jobs;
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }

  /** The installation's nodes as their rows say; empty before this node started. */
  public synchronized List<NodeRegistry.Node> nodes() {
    return nodeRegistry == null ? List.of() : nodeRegistry.nodes();
  }

  public PrometheusMeterRegistry metrics() {
    return metrics;
  }

  /** The key that signs email tokens and links: configured, else generated once into the data directory. */
  public synchronized Secret secret() {
    if (secret == null) {
      secret = settings
          .secret()
          .orElseGet(() -> DataDirSecrets.loadOrCreate(settings.dataDir().resolve("secret"), "", 32)
              .secret());
    }
    return secret;
  }

  /** Failed credentials counted per client address in the shared rate limiter, once per node. */
  public synchronized AuthThrottle authThrottle() {
    if (authThrottle == null) {
      authThrottle = new AuthThrottle(coordination().rateLimiter(), metrics, clock);
    }
    return authThrottle;
  }

  /** The API key: configured, else generated once into the data directory. */
  public Secret apiKey() {
    return generatedApiKey().secret();
  }

  /** True when this start generated the API key, so the operator must be shown it. */
  public boolean apiKeyIsNew() {
    return generatedApiKey().isNew();
  }

  private synchronized DataDirSecrets.Generated generatedApiKey() {
    if (apiKey == null) {
      apiKey = settings
          .apiKey()
          .map(key -> new DataDirSecrets.Generated(key, false))
          .orElseGet(
              () -> DataDirSecrets.loadOrCreate(settings.dataDir().resolve("api-key"), "tk_", 24));
    }
    return apiKey;
  }

  /** The database, migrated; the embedded PostgreSQL is started first when no URL is configured. */
  public synchronized Database database() {
    if (database == null) {
      Database connected;
      if (settings.embeddedDatabase()) {
        var directory = settings.dataDir().resolve("pg");
        log.info("starting the embedded PostgreSQL in {}", directory);
        var server = open(() -> EmbeddedPostgresServer.start(directory));
        connected = open(() ->
            Database.connect(server.connectionSpec(settings.dbPoolSize()), () -> {}, metrics));
      } else {
        var spec = ConnectionSpec.from(settings, settings.dbUrl().orElseThrow());
        connected = open(() -> Database.connect(spec, () -> {}, metrics));
      }
      connected.migrate();
      checks.add(new DependencyCheck("postgresql", connected.describe(), connected::problem));
      database = connected;
    }
    return database;
  }

  /**
   * Where reads that may lag a moment go (the dashboard's, the recommender's): a read-only pool on
   * {@code TIDINGS_DB_READ_URL} when set, its replication lag measured by each health probe and shown
   * on the system page; else the database itself.
   */
  public synchronized Database readDatabase() {
    if (readDatabase == null) {
      var readUrl = settings.dbReadUrl();
      if (readUrl.isEmpty()) return database();
      var spec = ConnectionSpec.from(settings, readUrl.get());
      var read = open(() -> Database.connectForReads(spec, metrics));
      var lag = new AtomicReference<Optional<String>>(Optional.empty());
      checks.add(new DependencyCheck(
          "postgresql-read",
          read.describe(),
          () -> {
            var problem = read.problem();
            if (problem.isEmpty()) lag.set(describeLag(read));
            return problem;
          },
          lag::get));
      readDatabase = read;
    }
    return readDatabase;
  }

  private static Optional<String> describeLag(Database read) {
    try {
      return Optional.of(read.replicationLag()
          .map(lag -> "replication lag " + lag.behind().toMillis() + " ms, "
              + lag.bytesNotReplayed() + " bytes not replayed")
          .orElse("not a standby (promoted?): reads are on a primary"));
    } catch (RuntimeException e) {
      return Optional.of("replication lag unknown: " + TidingsException.rootMessage(e));
    }
  }

  /**
   * Compute-once and rate limits: one Redis shared by every node, else in this process. Countdowns:
   * always in the database (embedded or configured), which opens it: a campaign's progress must
   * survive restarts of Redis and of the nodes, and one operation per partition costs the database
   * nothing that matters (docs/decisions.md).
   */
  public synchronized Coordination coordination() {
    if (coordination == null) {
      var countdown = new PostgresCountdown(database());
      var redisUrl = settings.redisUrl();
      if (redisUrl.isPresent()) {
        // one Redis or a cluster, told by the URL's scheme (redis-cluster://seed,seed,...)
        var redis = open(() -> RedisCoordination.connect(
            redisUrl.get(), RedisCoordination.Options.defaults(), metrics));
        checks.add(
            new DependencyCheck("redis", Settings.maskUserInfo(redisUrl.get()), redis::problem));
        coordination = new Coordination(redis.computeOnce(), countdown, redis.rateLimiter());
      } else {
        coordination = new Coordination(
            InProcessCoordination.computeOnce(clock),
            countdown,
            InProcessCoordination.rateLimiter(clock));
      }
    }
    return coordination;
  }

  /** Work queues on RabbitMQ when configured, else queue tables in the database. */
  public synchronized WorkQueue workQueue() {
    if (workQueue == null) {
      var amqpUrl = settings.amqpUrl();
      if (amqpUrl.isPresent()) {
        var options = RabbitQueueOptions.defaults()
            .withQueueType(
                switch (settings.amqpQueueType()) {
                  case CLASSIC -> RabbitQueueType.CLASSIC;
                  case QUORUM -> RabbitQueueType.QUORUM;
                });
        var rabbit = open(
            () -> RabbitWorkQueue.connect(amqpUrl.get(), options, InstantSource.system(), metrics));
        checks.add(
            new DependencyCheck("rabbitmq", Settings.maskUserInfo(amqpUrl.get()), rabbit::problem));
        workQueue = rabbit;
      } else {
        var databaseOfQueue = database();
        var tables = open(
            () -> new PostgresWorkQueue(databaseOfQueue, PostgresQueueOptions.defaults(), metrics));
        if (settings.embeddedDatabase()) {
          // the embedded database is this process's alone: a lease in it is one a killed run left
          int ended = tables.endLeasesOfAnEarlierProcess();
          if (ended > 0)
            log.warn(
                "{} queue messages were held by an earlier run that did not stop; delivering them again",
                ended);
        }
        workQueue = tables;
      }
    }
    return workQueue;
  }

  /** SMTP when configured, else one .eml file per message in the outbox directory. */
  public synchronized MailTransport mail() {
    if (mail == null) {
      var transport = open(() -> settings
          .smtpUrl()
          .<MailTransport>map(url -> new SmtpMailTransport(
              SmtpSettings.fromUrl(url).withProvider(settings.smtpProvider()), clock))
          .orElseGet(() -> new OutboxMailTransport(settings.outboxDir(), clock)));
      checks.add(new DependencyCheck("mail", transport.describe(), transport::problem));
      mail = new CountedMailTransport(transport, metrics);
    }
    return mail;
  }

  /**
   * Opens every server the settings name. Long-running roles call this at start, so a node whose
   * Redis or RabbitMQ is unreachable fails there, not on its first request, and health covers them all.
   */
  public void openAll() {
    database();
    coordination();
    workQueue();
    mail();
  }

  /** One check per server opened so far, for {@code /health}. */
  public synchronized List<DependencyCheck> dependencyChecks() {
    return List.copyOf(checks);
  }

  public interface Opening<T extends AutoCloseable> {
    T open();
  }

  /** Opens a resource that closes with this node's servers, newest first. */
  public synchronized <T extends AutoCloseable> T open(Opening<T> opening) {
    T resource = opening.open();
    opened.push(resource);
    return resource;
  }

  @Override
  public synchronized void close() {
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
