package dev.tidings.config;

import dev.tidings.fetch.FetchAllowance;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Everything Tidings reads from its environment, read once at start, validated, then immutable.
 * An absent optional URL selects the embedded default for that port (see README, "Settings").
 */
public record Settings(
    Optional<String> dbUrl,
    Optional<String> dbUser,
    Optional<Secret> dbPassword,
    int dbPoolSize,
    Optional<URI> redisUrl,
    Optional<URI> amqpUrl,
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
    OpenTimeStrategy openTimeStrategy,
    WebhookSettings webhooks,
    Duration parkedReceiptRetention,
    SmtpProvider smtpProvider,
    FetchAllowance fetchAllow,
    Optional<InetAddress> bind,
    Optional<Secret> metricsToken,
    Map<String, String> send) {

  public static final int DEFAULT_PORT = 8080;
  public static final int DEFAULT_DB_POOL_SIZE = 16;
  public static final long DEFAULT_MAX_BODY_BYTES = 1L << 20; // 1 MiB for JSON requests
  public static final long DEFAULT_MAX_IMPORT_BYTES = 4L << 30; // 4 GiB for streamed bulk imports
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
  public static final String DEFAULT_DATA_DIR = "./data";
  public static final String DEFAULT_PUBLIC_URL = "http://localhost:8080";
  /**
   * How long a receipt for a message not known yet waits for its send record: long enough for any
   * send to be recorded, short enough that receipts of mail another system sent do not pile up.
   */
  public static final Duration DEFAULT_PARKED_RECEIPT_RETENTION = Duration.ofDays(7);

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
        dbUser,
        dbPassword,
        dbPoolSize,
        redisUrl,
        amqpUrl,
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
        openTimeStrategy,
        webhooks,
        parkedReceiptRetention,
        smtpProvider,
        newFetchAllow,
        bind,
        metricsToken,
        send);
  }

  public enum LogFormat {
    AUTO,
    JSON,
    TEXT
  }

  /**
   * How the open-time slots are computed once: {@code TIDINGS} with the node's coordination (Redis or
   * in-process); {@code SEED} with seed 01's literal Redis commands, a benchmark baseline only.
   */
  public enum OpenTimeStrategy {
    TIDINGS,
    SEED
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
        "TIDINGS_DB_URL",
        dbUrl
            .map(Settings::maskUserInfo)
            .orElse("embedded PostgreSQL under " + dataDir.resolve("pg")));
    view.put("TIDINGS_DB_POOL_SIZE", Integer.toString(dbPoolSize));
    view.put(
        "TIDINGS_REDIS_URL",
        redisUrl.map(Settings::maskUserInfo).orElse("in-process coordination"));
    view.put(
        "TIDINGS_AMQP_URL",
        amqpUrl.map(Settings::maskUserInfo).orElse("queue tables in PostgreSQL"));
    view.put(
        "TIDINGS_SMTP_URL",
        smtpUrl.map(Settings::maskUserInfo).orElse(".eml files in " + outboxDir()));
    view.put("TIDINGS_DATA_DIR", dataDir.toString());
    view.put("TIDINGS_PUBLIC_URL", publicUrl.toString());
    view.put("TIDINGS_SHOP_URL", shopHome().toString());
    view.put("TIDINGS_SECRET", secret.isPresent() ? "<masked>" : "generated in the data dir");
    view.put("TIDINGS_API_KEY", apiKey.isPresent() ? "<masked>" : "generated in the data dir");
    view.put("TIDINGS_PORT", Integer.toString(port));
    view.put("TIDINGS_MAX_BODY_BYTES", Long.toString(maxBodyBytes));
    view.put("TIDINGS_MAX_IMPORT_BYTES", Long.toString(maxImportBytes));
    view.put("TIDINGS_SHUTDOWN_GRACE", shutdownGrace.toString());
    view.put("TIDINGS_LOG_FORMAT", logFormat.name().toLowerCase(java.util.Locale.ROOT));
    view.put(
        "TIDINGS_OPENTIME_STRATEGY", openTimeStrategy.name().toLowerCase(java.util.Locale.ROOT));
    describeWebhooks(view);
    view.put("TIDINGS_PARKED_RECEIPT_RETENTION", parkedReceiptRetention.toString());
    view.put("TIDINGS_SMTP_PROVIDER", smtpProvider.name().toLowerCase(java.util.Locale.ROOT));
    view.put(
        "TIDINGS_FETCH_ALLOW",
        fetchAllow.isEmpty() ? "public addresses only" : fetchAllow.describe());
    view.put(
        "TIDINGS_BIND", bind.map(InetAddress::getHostAddress).orElse("every interface (0.0.0.0)"));
    view.put(
        "TIDINGS_METRICS_TOKEN",
        metricsToken.isPresent() ? "<masked>" : "not set (/metrics takes the API key)");
    return view;
  }

  private void describeWebhooks(Map<String, String> view) {
    String off = "not configured (route answers 404)";
    view.put(
        "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY",
        webhooks.sendgridPublicKey().isPresent() ? "configured" : off);
    view.put(
        "TIDINGS_SES_TOPIC_ARN",
        webhooks.sesTopicArns().isEmpty() ? off : String.join(",", webhooks.sesTopicArns()));
    view.put(
        "TIDINGS_SES_SIGNING_CERT_FILE",
        webhooks
            .sesSigningCertFile()
            .map(Path::toString)
            .orElse("fetched from sns.<region>.amazonaws.com"));
    view.put(
        "TIDINGS_MAILGUN_SIGNING_KEY", webhooks.mailgunSigningKey().isPresent() ? "<masked>" : off);
    view.put(
        "TIDINGS_POSTMARK_WEBHOOK_USER",
        webhooks.postmark().map(WebhookSettings.PostmarkCredentials::user).orElse(off));
    view.put(
        "TIDINGS_POSTMARK_WEBHOOK_PASSWORD", webhooks.postmark().isPresent() ? "<masked>" : off);
    view.put("TIDINGS_WEBHOOK_MAX_AGE", webhooks.maxAge().toString());
  }

  /** The URL as text with any password replaced, for logs and /health. */
  public static String maskUserInfo(Object url) {
    String text = url.toString();
    return text.replaceAll("(//[^:/@]+):[^@/]*@", "$1:<masked>@")
        .replaceAll("(?i)(password=)[^&]*", "$1<masked>");
  }

  /** Where a click that names no product of ours lands: the shop's home, else Tidings' own URL. */
  public URI shopHome() {
    return shopUrl.orElse(publicUrl);
  }
}
