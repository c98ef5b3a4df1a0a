package dev.tidings.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Every setting of a node, each declared once: the loader reads them by these entries (their ranges
 * and fallbacks included), the start-up description lists them, and a test holds the README's table to
 * them. A setting is added here and nowhere else by name.
 */
public final class SettingsCatalog {
  private SettingsCatalog() {}

  public static final Setting CONFIG = Setting.text(
      "TIDINGS_CONFIG",
      Setting.Kind.PATH,
      "none",
      "a properties file holding any of these settings by the same names; the environment wins over it");
  public static final Setting DB_URL = Setting.text(
      "TIDINGS_DB_URL",
      Setting.Kind.URL,
      "embedded PostgreSQL under `TIDINGS_DATA_DIR/pg`",
      "`jdbc:postgresql://host:5432/db` (or `postgresql://...`) of a PostgreSQL 15+ with its contrib extensions (the migrations create `pg_trgm` in schema `public` for the subscriber search by name; where they cannot, they warn and that search reads the table); a primary and its standbys as `jdbc:postgresql://h1:5432,h2:5432/db` (the node writes to whichever is primary, `targetServerType=primary` unless the URL says otherwise, and follows a promotion)");
  public static final Setting DB_READ_URL = Setting.text(
      "TIDINGS_DB_READ_URL",
      Setting.Kind.URL,
      "reads on `TIDINGS_DB_URL`",
      "a standby's `jdbc:postgresql://standby:5432/db` (same user and password): the dashboard's and the recommender's reads go to a second, read-only pool there, which may lag the primary by the replication delay (shown on the system page); several hosts prefer a standby (`targetServerType=preferSecondary`)");
  public static final Setting DB_USER = Setting.text(
      "TIDINGS_DB_USER", Setting.Kind.TEXT, "none", "the database user, when not in the URL");
  public static final Setting DB_PASSWORD = Setting.secret(
      "TIDINGS_DB_PASSWORD", "none", 0, "the database password, when not in the URL");
  public static final Setting DB_POOL_SIZE =
      Setting.integer("TIDINGS_DB_POOL_SIZE", 16, 1, 500, "connections per node");
  public static final Setting REDIS_URL = Setting.text(
      "TIDINGS_REDIS_URL",
      Setting.Kind.URL,
      "in-process coordination",
      "`redis://host:6379` (TLS: `rediss://`), or a Redis Cluster by its seed nodes `redis-cluster://host1:7000,host2:7001,host3:7002` (TLS: `rediss-cluster://`; `user:password@` before the first seed holds for all): compute-once locks and rate limits shared by all nodes (countdowns are always in the database)");
  public static final Setting AMQP_URL = Setting.text(
      "TIDINGS_AMQP_URL",
      Setting.Kind.URL,
      "queue tables in PostgreSQL",
      "`amqp://user:pass@host:5672/vhost`: work queues on RabbitMQ; several nodes of one cluster as `amqp://user:pass@h1:5672,h2:5672,h3:5672/vhost`, a connection goes to one and recovers on any");
  public static final Setting AMQP_QUEUE_TYPE = Setting.text(
      "TIDINGS_AMQP_QUEUE_TYPE",
      Setting.Kind.CHOICE,
      "`classic`",
      "what RabbitMQ queues hold the work queues: `classic`, or `quorum` (replicated on three nodes of a cluster, survives the loss of one; dead-lettering at least once); an existing queue keeps its type, so a change needs its queues drained and deleted");
  public static final Setting SMTP_URL = Setting.text(
      "TIDINGS_SMTP_URL",
      Setting.Kind.URL,
      "`.eml` files in `TIDINGS_DATA_DIR/outbox`",
      "`smtp://user:pass@host:587?starttls=true` or `smtps://...`");
  public static final Setting SMTP_PROVIDER = Setting.text(
      "TIDINGS_SMTP_PROVIDER",
      Setting.Kind.CHOICE,
      "`auto`",
      "which provider's header carries each message's id so that its webhook events name the message: `auto` (told from the SMTP host: `smtp.sendgrid.net` SendGrid `X-SMTPAPI` unique args, `smtp.mailgun.org` and `smtp.eu.mailgun.org` Mailgun `X-Mailgun-Variables`, `smtp.postmarkapp.com` Postmark `X-PM-Metadata-tidings_message_id`, `email-smtp.*.amazonaws.com` Amazon SES `X-SES-MESSAGE-TAGS`), `none`, `sendgrid`, `mailgun`, `postmark` or `ses`");
  public static final Setting BIND = Setting.text(
      "TIDINGS_BIND",
      Setting.Kind.ADDRESS,
      "every interface (`0.0.0.0`)",
      "the IP address of this machine the HTTP server listens on, e.g. `127.0.0.1` behind a local proxy; checked at start");
  public static final Setting METRICS_TOKEN = Setting.secret(
      "TIDINGS_METRICS_TOKEN",
      "none",
      16,
      "what a scraper sends as `Authorization: Bearer` for `/metrics` and `/health`'s details, instead of the API key");
  public static final Setting DATA_DIR = Setting.text(
      "TIDINGS_DATA_DIR",
      Setting.Kind.PATH,
      "`./data`",
      "embedded database, outbox, generated secrets, a fetched product feed while it is imported, an upload body over 256 KiB while it is imported (`uploads`)");
  public static final Setting PUBLIC_URL = Setting.text(
      "TIDINGS_PUBLIC_URL",
      Setting.Kind.URL,
      "`http://localhost:8080`",
      "the base URL written into emails");
  public static final Setting SHOP_URL = Setting.text(
      "TIDINGS_SHOP_URL",
      Setting.Kind.URL,
      "the `TIDINGS_PUBLIC_URL`",
      "where a click on a link Tidings cannot read lands (the shop's home page)");
  public static final Setting SECRET = Setting.secret(
      "TIDINGS_SECRET",
      "generated once into `TIDINGS_DATA_DIR/secret`",
      16,
      "signs email tokens and links; several, separated by commas, rotate it: the first signs, all verify");
  public static final Setting API_KEY = Setting.secret(
      "TIDINGS_API_KEY",
      "generated once into `TIDINGS_DATA_DIR/api-key`",
      16,
      "required on `/api/**` as `Authorization: Bearer ...`");
  public static final Setting PORT =
      Setting.integer("TIDINGS_PORT", 8080, 0, 65535, "HTTP port (0 picks a free one)");
  public static final Setting MAX_BODY_BYTES = Setting.bytes(
      "TIDINGS_MAX_BODY_BYTES", 1L << 20, "largest JSON request body; larger gets 413");
  public static final Setting MAX_IMPORT_BYTES = Setting.bytes(
      "TIDINGS_MAX_IMPORT_BYTES",
      4L << 30,
      "largest import body (and JSON Lines events); each is received whole before its import takes a database connection, one over 256 KiB in a file under `TIDINGS_DATA_DIR/uploads` deleted afterwards, so each upload in flight may take this much disk");
  public static final Setting SHUTDOWN_GRACE = Setting.duration(
      "TIDINGS_SHUTDOWN_GRACE",
      Duration.ofSeconds(10),
      Duration.ZERO,
      "how long requests in flight may finish at shutdown");
  public static final Setting LOG_FORMAT = Setting.text(
      "TIDINGS_LOG_FORMAT",
      Setting.Kind.CHOICE,
      "`auto`",
      "`text` on a terminal, `json` (one object per line) otherwise; or force `text`/`json`");
  public static final Setting ACCESS_LOG = Setting.text(
      "TIDINGS_ACCESS_LOG",
      Setting.Kind.CHOICE,
      "`off`",
      "`on`: one line per HTTP request on the `tidings.access` logger (method, path, route, status, bytes, milliseconds, peer; never a header or a body); `off`: none");
  public static final Setting SEND_PARTITION_SIZE = Setting.integer(
      "TIDINGS_SEND_PARTITION_SIZE",
      1000,
      1,
      1_000_000,
      "recipients per partition of a campaign run (the unit a worker leases)");
  public static final Setting SEND_LEASE_TTL = Setting.duration(
      "TIDINGS_SEND_LEASE_TTL",
      Duration.ofSeconds(30),
      Duration.ofSeconds(1),
      "a partition whose worker shows no progress this long is taken over by another worker");
  public static final Setting SEND_SLOTS = Setting.integer(
      "TIDINGS_SEND_SLOTS", 4, 1, 256, "partitions one `worker` (or `demo`) node sends at once");
  public static final Setting SEND_SENDERS = Setting.integer(
      "TIDINGS_SEND_SENDERS",
      4,
      1,
      64,
      "emails of one partition in flight at once; give `TIDINGS_SMTP_URL` a `pool=` of at least slots x senders");
  public static final Setting SEND_CHUNK = Setting.integer(
      "TIDINGS_SEND_CHUNK",
      50,
      1,
      10_000,
      "recipients claimed in the ledger, sent and marked together");
  public static final Setting SEND_QUEUE = Setting.text(
      "TIDINGS_SEND_QUEUE",
      Setting.Kind.TEXT,
      "`campaign.send`",
      "the work queue of partitions and triggered sends");
  public static final Setting SEND_RECEIPT_QUEUE = Setting.text(
      "TIDINGS_SEND_RECEIPT_QUEUE",
      Setting.Kind.TEXT,
      "`campaign.outcome`",
      "the queue of send outcomes (SENT, DEFERRED, FAILED, UNKNOWN, SKIPPED) for the delivery capability");
  public static final Setting SENDGRID_WEBHOOK_PUBLIC_KEY = Setting.text(
      "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY",
      Setting.Kind.TEXT,
      "none (`/webhooks/sendgrid` answers 404)",
      "the Event Webhook's verification key as SendGrid shows it (base64 DER) or as PEM");
  public static final Setting SES_TOPIC_ARN = Setting.text(
      "TIDINGS_SES_TOPIC_ARN",
      Setting.Kind.LIST,
      "none (`/webhooks/ses` answers 404)",
      "the SNS topic ARNs whose messages are taken, separated by commas; any other topic gets 403");
  public static final Setting SES_SIGNING_CERT_FILE = Setting.text(
      "TIDINGS_SES_SIGNING_CERT_FILE",
      Setting.Kind.PATH,
      "fetched",
      "a PEM file of SNS signing certificates for nodes that cannot reach AWS; otherwise each certificate is fetched once from its `https://sns.<region>.amazonaws.com/*.pem` URL (5 s timeout) and kept");
  public static final Setting MAILGUN_SIGNING_KEY = Setting.secret(
      "TIDINGS_MAILGUN_SIGNING_KEY",
      "none (`/webhooks/mailgun` answers 404)",
      8,
      "Mailgun's HTTP webhook signing key");
  public static final Setting POSTMARK_WEBHOOK_USER = Setting.text(
      "TIDINGS_POSTMARK_WEBHOOK_USER",
      Setting.Kind.TEXT,
      "none (`/webhooks/postmark` answers 404)",
      "the user of the basic-auth pair in the webhook URL you give Postmark (`https://user:password@host/webhooks/postmark`); set it with the password");
  public static final Setting POSTMARK_WEBHOOK_PASSWORD = Setting.secret(
      "TIDINGS_POSTMARK_WEBHOOK_PASSWORD",
      "none (`/webhooks/postmark` answers 404)",
      16,
      "the password of that pair; set it with the user");
  public static final Setting WEBHOOK_MAX_AGE = Setting.duration(
      "TIDINGS_WEBHOOK_MAX_AGE",
      Duration.ofMinutes(5),
      Duration.ZERO,
      "how far a webhook's signed timestamp may be from now (SendGrid, Mailgun); SNS messages may be as old as the larger of this and SNS's one-hour retry window");
  public static final Setting PARKED_RECEIPT_RETENTION = Setting.duration(
      "TIDINGS_PARKED_RECEIPT_RETENTION",
      Duration.ofDays(7),
      Duration.ZERO,
      "how long a delivery receipt for a message not known yet (it overtook the send record) waits for it before worker nodes drop it (more than zero); dropped receipts are counted in `tidings_delivery_parked_receipts_expired_total`");
  public static final Setting RETENTION_MESSAGES = Setting.duration(
      "TIDINGS_RETENTION_MESSAGES",
      Duration.ofDays(180),
      Duration.ofDays(7),
      "how long an email's own records live after the last thing that happened to it (180 days; at least 7): its status, funnel steps and slot clicks, its kept slot list, its experiment variant, what a digest told, and the send ledger's rows of a bulk run that finished; campaign totals, the funnel and its minutes, the runs' counts and experiments' results are kept for good");
  public static final Setting RETENTION_EVENTS = Setting.duration(
      "TIDINGS_RETENTION_EVENTS",
      Duration.ofDays(400),
      Duration.ofDays(90),
      "how long activity events live after they happened (400 days; at least 90, what the recommenders read); what they counted stays in the month, year and all-time aggregates");
  public static final Setting RETENTION_DEAD_LETTERS = Setting.duration(
      "TIDINGS_RETENTION_DEAD_LETTERS",
      Duration.ofDays(30),
      Duration.ofHours(1),
      "how long dead letters of the queue tables are kept after they died (30 days)");
  public static final Setting RETENTION_EVENT_LOG = Setting.duration(
      "TIDINGS_RETENTION_EVENT_LOG",
      Duration.ofDays(30),
      Duration.ofDays(1),
      "how long the event log keeps an event after it was relayed (30 days; at least 1): how far back `GET /api/v1/events?after=` can start");
  public static final Setting RETENTION_INTERVAL = Setting.duration(
      "TIDINGS_RETENTION_INTERVAL",
      Duration.ofHours(1),
      Duration.ofMinutes(1),
      "how often a worker node removes what outlived its lifetime (one node at a time); removed rows are counted in `tidings_retention_rows_removed_total{table}`");
  public static final Setting RETENTION_BATCH = Setting.integer(
      "TIDINGS_RETENTION_BATCH",
      5_000,
      100,
      100_000,
      "rows removed per transaction; the job rests as long as each batch took before the next, so it yields to sending and receipts");
  public static final Setting RECOMMEND_WARM_ENTRIES = Setting.integer(
      "TIDINGS_RECOMMEND_WARM_ENTRIES",
      500_000,
      0,
      100_000_000,
      "users' aggregates and follows a node holds in memory for the recommender (about 120 bytes each), loaded at start and kept fresh by PostgreSQL's notifications; while all fit, a user the node lacks has none and is answered without a read; 0 reads them on every request");
  public static final Setting TEST_SENDS_PER_MINUTE = Setting.integer(
      "TIDINGS_TEST_SENDS_PER_MINUTE",
      10,
      1,
      10_000,
      "test sends of a campaign to a typed address (`POST /api/v1/campaigns/{id}/test`, the dashboard's \"Send test\") the installation takes a minute, every node sharing one bucket when Redis coordinates them; more get 429 with `Retry-After`");
  public static final Setting FETCH_ALLOW = Setting.text(
      "TIDINGS_FETCH_ALLOW",
      Setting.Kind.LIST,
      "none (public addresses only)",
      "what fetches of URLs from input (product pictures for the cards) may reach although they are not public: comma-separated CIDR ranges (`10.20.0.0/16`, `fd00:1::/32`), addresses, optionally with a port (`10.20.0.7:8080`, `[fd00::7]:8080`), or host names (`images.internal`, optionally `:8443`); loopback, private, link-local (cloud metadata), CGNAT, multicast and documentation addresses are refused otherwise, counted in `tidings_fetch_requests_total{purpose,result}`; `tidings demo` adds its own node's address and port");

  public static final Setting PRODUCT_FEED_URL = Setting.text(
      "TIDINGS_PRODUCT_FEED_URL",
      Setting.Kind.URL,
      "none",
      "`https://shop.example.com/feed.xml`: a Google Merchant Center product feed (RSS/Atom XML or tab-separated, optionally gzip) that one node at a time fetches every `TIDINGS_PRODUCT_FEED_INTERVAL`, conditionally (ETag, Last-Modified), through the guarded fetcher (`TIDINGS_FETCH_ALLOW`); a full snapshot: its products are upserted, the feed's products it no longer lists become unavailable (docs/feeds.md); the first fetch of a URL is not news");
  public static final Setting PRODUCT_FEED_INTERVAL = Setting.duration(
      "TIDINGS_PRODUCT_FEED_INTERVAL",
      Duration.ofHours(1),
      Duration.ofMinutes(1),
      "how often the product feed is fetched");
  public static final Setting PRODUCT_FEED_MAX_BYTES = Setting.bytes(
      "TIDINGS_PRODUCT_FEED_MAX_BYTES",
      256L << 20,
      "largest product feed fetched, as it arrives (gzip counts compressed); the body is streamed to a temporary file under `TIDINGS_DATA_DIR/product-feed` and deleted after its import, so it takes that much disk, never that much memory; a larger one stops being read, is refused and counted");
  public static final Setting BACK_IN_STOCK_NEWS = Setting.text(
      "TIDINGS_BACK_IN_STOCK_NEWS",
      Setting.Kind.CHOICE,
      "`false`",
      "`true`: a product of a brand that was unavailable and is available again is news to the brand's followers again (as a new product is), whichever way it came back (API, import, feed); `false`: only new products are");

  /** In the order the README's table lists them. */
  public static final List<Setting> ALL = List.of(
      CONFIG,
      DB_URL,
      DB_READ_URL,
      DB_USER,
      DB_PASSWORD,
      DB_POOL_SIZE,
      REDIS_URL,
      AMQP_URL,
      AMQP_QUEUE_TYPE,
      SMTP_URL,
      SMTP_PROVIDER,
      BIND,
      METRICS_TOKEN,
      DATA_DIR,
      PUBLIC_URL,
      SHOP_URL,
      SECRET,
      API_KEY,
      PORT,
      MAX_BODY_BYTES,
      MAX_IMPORT_BYTES,
      SHUTDOWN_GRACE,
      LOG_FORMAT,
      ACCESS_LOG,
      SEND_PARTITION_SIZE,
      SEND_LEASE_TTL,
      SEND_SLOTS,
      SEND_SENDERS,
      SEND_CHUNK,
      SEND_QUEUE,
      SEND_RECEIPT_QUEUE,
      SENDGRID_WEBHOOK_PUBLIC_KEY,
      SES_TOPIC_ARN,
      SES_SIGNING_CERT_FILE,
      MAILGUN_SIGNING_KEY,
      POSTMARK_WEBHOOK_USER,
      POSTMARK_WEBHOOK_PASSWORD,
      WEBHOOK_MAX_AGE,
      PARKED_RECEIPT_RETENTION,
      RETENTION_MESSAGES,
      RETENTION_EVENTS,
      RETENTION_DEAD_LETTERS,
      RETENTION_EVENT_LOG,
      RETENTION_INTERVAL,
      RETENTION_BATCH,
      RECOMMEND_WARM_ENTRIES,
      TEST_SENDS_PER_MINUTE,
      FETCH_ALLOW,
      PRODUCT_FEED_URL,
      PRODUCT_FEED_INTERVAL,
      PRODUCT_FEED_MAX_BYTES,
      BACK_IN_STOCK_NEWS);

  public static Optional<Setting> named(String name) {
    return ALL.stream().filter(setting -> setting.name().equals(name)).findFirst();
  }
}
