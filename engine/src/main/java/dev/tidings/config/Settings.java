package dev.tidings.config;

import dev.tidings.fetch.FetchAllowance;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Everything Tidings reads from its environment, read once at start, validated, then immutable.
 * An absent optional URL selects the embedded default for that port (see README, "Settings").
 */
public record Settings(
    Optional<String> dbUrl,
    Optional<String> dbReadUrl,
    Optional<String> dbUser,
    Optional<Secret> dbPassword,
    int dbPoolSize,
    Optional<URI> redisUrl,
    Optional<URI> amqpUrl,
    AmqpQueueType amqpQueueType,
    Optional<URI> smtpUrl,
    Path dataDir,
    URI publicUrl,
    Optional<URI> shopUrl,
    Optional<Secret> secret,
    Optional<Secret> apiKey,
    int port,
    long maxBodyBytes,
    long maxImportBytes,
    Duration shutdownGrace,
    LogFormat logFormat,
    boolean accessLog,
    WebhookSettings webhooks,
    Duration parkedReceiptRetention,
    RetentionSettings retention,
    SmtpProvider smtpProvider,
    FetchAllowance fetchAllow,
    Optional<InetAddress> bind,
    Optional<Secret> metricsToken,
    Map<String, String> send,
    long recommendWarmEntries,
    int testSendsPerMinute,
    CatalogSettings catalog) {

  public static final int DEFAULT_PORT = SettingsCatalog.PORT.intDefault();
  public static final int DEFAULT_DB_POOL_SIZE = SettingsCatalog.DB_POOL_SIZE.intDefault();
  public static final long DEFAULT_MAX_BODY_BYTES = SettingsCatalog.MAX_BODY_BYTES.longDefault();
  public static final long DEFAULT_MAX_IMPORT_BYTES =
      SettingsCatalog.MAX_IMPORT_BYTES.longDefault();
  public static final Duration DEFAULT_SHUTDOWN_GRACE =
      SettingsCatalog.SHUTDOWN_GRACE.durationDefault();
  public static final String DEFAULT_DATA_DIR =
      SettingsCatalog.DATA_DIR.literalDefault().orElseThrow();
  public static final String DEFAULT_PUBLIC_URL =
      SettingsCatalog.PUBLIC_URL.literalDefault().orElseThrow();
  /**
   * How long a receipt for a message not known yet waits for its send record: long enough for any
   * send to be recorded, short enough that receipts of mail another system sent do not pile up.
   */
  public static final Duration DEFAULT_PARKED_RECEIPT_RETENTION =
      SettingsCatalog.PARKED_RECEIPT_RETENTION.durationDefault();

  /**
   * These settings on another port; a public URL left at its default follows the port, so that the
   * links in emails reach this node (the demo's {@code --port}).
   */
  public Settings onPort(int newPort) {
    URI url = publicUrl.toString().equals(DEFAULT_PUBLIC_URL)
        ? URI.create("http://localhost:" + newPort)
        : publicUrl;
    return copy(url, newPort, fetchAllow);
  }

  /**
   * These settings letting fetches of URLs from input reach {@code extra} as well: the demo's node
   * fetching its sample shop's pictures from itself.
   */
  public Settings withFetchAllowed(FetchAllowance extra) {
    return copy(publicUrl, port, fetchAllow.plus(extra));
  }

  /** These settings with the three that a node's start may change. */
  private Settings copy(URI newPublicUrl, int newPort, FetchAllowance newFetchAllow) {
    return new Settings(
        dbUrl,
        dbReadUrl,
        dbUser,
        dbPassword,
        dbPoolSize,
        redisUrl,
        amqpUrl,
        amqpQueueType,
        smtpUrl,
        dataDir,
        newPublicUrl,
        shopUrl,
        secret,
        apiKey,
        newPort,
        maxBodyBytes,
        maxImportBytes,
        shutdownGrace,
        logFormat,
        accessLog,
        webhooks,
        parkedReceiptRetention,
        retention,
        smtpProvider,
        newFetchAllow,
        bind,
        metricsToken,
        send,
        recommendWarmEntries,
        testSendsPerMinute,
        catalog);
  }

  /** See {@link SettingsCatalog#AMQP_QUEUE_TYPE}. */
  public enum AmqpQueueType {
    CLASSIC,
    QUORUM
  }

  public enum LogFormat {
    AUTO,
    JSON,
    TEXT
  }

  /**
   * Which provider's correlation header outgoing mail carries, so that the provider's webhook events
   * name our message: {@code AUTO} tells it from the SMTP host; {@code NONE} sends none.
   */
  public enum SmtpProvider {
    AUTO,
    NONE,
    SENDGRID,
    MAILGUN,
    POSTMARK,
    SES
  }

  public boolean embeddedDatabase() {
    return dbUrl.isEmpty();
  }

  public Path outboxDir() {
    return dataDir.resolve("outbox");
  }

  /** What an operator sees at start: every setting, secrets masked, defaults named. */
  public Map<String, String> describe() {
    var view = new LinkedHashMap<String, String>();
    view.put(
        SettingsCatalog.DB_URL.name(),
        dbUrl
            .map(Settings::maskUserInfo)
            .orElse("embedded PostgreSQL under " + dataDir.resolve("pg")));
    view.put(
        SettingsCatalog.DB_READ_URL.name(),
        dbReadUrl.map(Settings::maskUserInfo).orElse("reads on TIDINGS_DB_URL"));
    view.put(SettingsCatalog.DB_USER.name(), dbUser.orElse("none"));
    view.put(SettingsCatalog.DB_PASSWORD.name(), dbPassword.isPresent() ? "<masked>" : "none");
    view.put(SettingsCatalog.DB_POOL_SIZE.name(), Integer.toString(dbPoolSize));
    view.put(
        SettingsCatalog.REDIS_URL.name(),
        redisUrl.map(Settings::maskUserInfo).orElse("in-process coordination"));
    view.put(
        SettingsCatalog.AMQP_URL.name(),
        amqpUrl.map(Settings::maskUserInfo).orElse("queue tables in PostgreSQL"));
    view.put(SettingsCatalog.AMQP_QUEUE_TYPE.name(), amqpQueueType.name().toLowerCase(Locale.ROOT));
    view.put(
        SettingsCatalog.SMTP_URL.name(),
        smtpUrl.map(Settings::maskUserInfo).orElse(".eml files in " + outboxDir()));
    view.put(SettingsCatalog.DATA_DIR.name(), dataDir.toString());
    view.put(SettingsCatalog.PUBLIC_URL.name(), publicUrl.toString());
    view.put(SettingsCatalog.SHOP_URL.name(), shopHome().toString());
    view.put(
        SettingsCatalog.SECRET.name(),
        secret.isPresent() ? "<masked>" : "generated in the data dir");
    view.put(
        SettingsCatalog.API_KEY.name(),
        apiKey.isPresent() ? "<masked>" : "generated in the data dir");
    view.put(SettingsCatalog.PORT.name(), Integer.toString(port));
    view.put(SettingsCatalog.MAX_BODY_BYTES.name(), Long.toString(maxBodyBytes));
    view.put(SettingsCatalog.MAX_IMPORT_BYTES.name(), Long.toString(maxImportBytes));
    view.put(SettingsCatalog.SHUTDOWN_GRACE.name(), shutdownGrace.toString());
    view.put(SettingsCatalog.LOG_FORMAT.name(), logFormat.name().toLowerCase(Locale.ROOT));
    view.put(SettingsCatalog.ACCESS_LOG.name(), accessLog ? "on" : "off");
    describeWebhooks(view);
    view.put(SettingsCatalog.PARKED_RECEIPT_RETENTION.name(), parkedReceiptRetention.toString());
    view.put(SettingsCatalog.RETENTION_MESSAGES.name(), retention.messages().toString());
    view.put(SettingsCatalog.RETENTION_EVENTS.name(), retention.events().toString());
    view.put(
        SettingsCatalog.RETENTION_DEAD_LETTERS.name(), retention.deadLetters().toString());
    view.put(SettingsCatalog.RETENTION_EVENT_LOG.name(), retention.eventLog().toString());
    view.put(SettingsCatalog.RETENTION_INTERVAL.name(), retention.interval().toString());
    view.put(SettingsCatalog.RETENTION_BATCH.name(), Integer.toString(retention.batch()));
    view.put(SettingsCatalog.SMTP_PROVIDER.name(), smtpProvider.name().toLowerCase(Locale.ROOT));
    view.put(SettingsCatalog.RECOMMEND_WARM_ENTRIES.name(), Long.toString(recommendWarmEntries));
    view.put(SettingsCatalog.TEST_SENDS_PER_MINUTE.name(), Integer.toString(testSendsPerMinute));
    view.put(
        SettingsCatalog.FETCH_ALLOW.name(),
        fetchAllow.isEmpty() ? "public addresses only" : fetchAllow.describe());
    // a feed URL may carry a token in its query or user info: only where it points is shown
    view.put(
        SettingsCatalog.PRODUCT_FEED_URL.name(),
        catalog
            .feedUrl()
            .map(url -> url.getScheme() + "://" + url.getHost()
                + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?<masked>"))
            .orElse("none"));
    view.put(
        SettingsCatalog.PRODUCT_FEED_INTERVAL.name(), catalog.feedInterval().toString());
    view.put(SettingsCatalog.PRODUCT_FEED_MAX_BYTES.name(), Long.toString(catalog.feedMaxBytes()));
    view.put(
        SettingsCatalog.BACK_IN_STOCK_NEWS.name(), Boolean.toString(catalog.backInStockNews()));
    view.put(
        SettingsCatalog.BIND.name(),
        bind.map(InetAddress::getHostAddress).orElse("every interface (0.0.0.0)"));
    view.put(
        SettingsCatalog.METRICS_TOKEN.name(),
        metricsToken.isPresent() ? "<masked>" : "not set (/metrics takes the API key)");
    for (Setting setting : List.of(
        SettingsCatalog.SEND_PARTITION_SIZE,
        SettingsCatalog.SEND_LEASE_TTL,
        SettingsCatalog.SEND_SLOTS,
        SettingsCatalog.SEND_SENDERS,
        SettingsCatalog.SEND_CHUNK,
        SettingsCatalog.SEND_QUEUE,
        SettingsCatalog.SEND_RECEIPT_QUEUE))
      view.put(
          setting.name(),
          send.getOrDefault(setting.name(), setting.literalDefault().orElseThrow()));
    return view;
  }

  private void describeWebhooks(Map<String, String> view) {
    String off = "not configured (route answers 404)";
    view.put(
        SettingsCatalog.SENDGRID_WEBHOOK_PUBLIC_KEY.name(),
        webhooks.sendgridPublicKey().isPresent() ? "configured" : off);
    view.put(
        SettingsCatalog.SES_TOPIC_ARN.name(),
        webhooks.sesTopicArns().isEmpty() ? off : String.join(",", webhooks.sesTopicArns()));
    view.put(
        SettingsCatalog.SES_SIGNING_CERT_FILE.name(),
        webhooks
            .sesSigningCertFile()
            .map(Path::toString)
            .orElse("fetched from sns.<region>.amazonaws.com"));
    view.put(
        SettingsCatalog.MAILGUN_SIGNING_KEY.name(),
        webhooks.mailgunSigningKey().isPresent() ? "<masked>" : off);
    view.put(
        SettingsCatalog.POSTMARK_WEBHOOK_USER.name(),
        webhooks.postmark().map(WebhookSettings.PostmarkCredentials::user).orElse(off));
    view.put(
        SettingsCatalog.POSTMARK_WEBHOOK_PASSWORD.name(),
        webhooks.postmark().isPresent() ? "<masked>" : off);
    view.put(SettingsCatalog.WEBHOOK_MAX_AGE.name(), webhooks.maxAge().toString());
  }

  /** The URL as text with any password replaced, for logs and /health. */
  public static String maskUserInfo(Object url) {
    String text = url.toString();
    return text.replaceAll("(//[^:/@]*):[^@/]*@", "$1:<masked>@")
        .replaceAll("(?i)(password=)[^&]*", "$1<masked>");
  }

  /** Where a click that names no product of ours lands: the shop's home, else Tidings' own URL. */
  public URI shopHome() {
    return shopUrl.orElse(publicUrl);
  }
}
