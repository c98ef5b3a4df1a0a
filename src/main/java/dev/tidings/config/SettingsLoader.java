package dev.tidings.config;

import dev.tidings.fetch.FetchAllowance;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Reads {@link Settings} from environment variables and, when {@code TIDINGS_CONFIG} names one, a
 * properties file with the same names. The environment wins over the file. Every problem is collected
 * and reported together.
 */
public final class SettingsLoader {
  public static final String CONFIG_FILE_VARIABLE = "TIDINGS_CONFIG";

  private static final Set<String> KNOWN = Set.of(
      "TIDINGS_DB_URL",
      "TIDINGS_DB_USER",
      "TIDINGS_DB_PASSWORD",
      "TIDINGS_DB_POOL_SIZE",
      "TIDINGS_REDIS_URL",
      "TIDINGS_AMQP_URL",
      "TIDINGS_SMTP_URL",
      "TIDINGS_DATA_DIR",
      "TIDINGS_PUBLIC_URL",
      "TIDINGS_SHOP_URL",
      "TIDINGS_SECRET",
      "TIDINGS_API_KEY",
      "TIDINGS_PORT",
      "TIDINGS_MAX_BODY_BYTES",
      "TIDINGS_MAX_IMPORT_BYTES",
      "TIDINGS_SHUTDOWN_GRACE",
      "TIDINGS_LOG_FORMAT",
      "TIDINGS_OPENTIME_STRATEGY",
      "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY",
      "TIDINGS_SES_TOPIC_ARN",
      "TIDINGS_SES_SIGNING_CERT_FILE",
      "TIDINGS_MAILGUN_SIGNING_KEY",
      "TIDINGS_POSTMARK_WEBHOOK_USER",
      "TIDINGS_POSTMARK_WEBHOOK_PASSWORD",
      "TIDINGS_WEBHOOK_MAX_AGE",
      "TIDINGS_PARKED_RECEIPT_RETENTION",
      "TIDINGS_SMTP_PROVIDER",
      "TIDINGS_FETCH_ALLOW",
      "TIDINGS_BIND",
      "TIDINGS_METRICS_TOKEN",
      "TIDINGS_SEND_PARTITION_SIZE",
      "TIDINGS_SEND_LEASE_TTL",
      "TIDINGS_SEND_SLOTS",
      "TIDINGS_SEND_SENDERS",
      "TIDINGS_SEND_CHUNK",
      "TIDINGS_SEND_QUEUE",
      "TIDINGS_SEND_RECEIPT_QUEUE",
      CONFIG_FILE_VARIABLE);

  private final Map<String, String> values;
  private final List<String> problems = new ArrayList<>();

  private SettingsLoader(Map<String, String> values) {
    this.values = values;
  }

  public static Settings fromEnvironment() {
    return load(System.getenv());
  }

  public static Settings load(Map<String, String> environment) {
    var merged = new HashMap<String, String>();
    var problems = new ArrayList<String>();
    String file = environment.get(CONFIG_FILE_VARIABLE);
    if (file != null && !file.isBlank()) {
      readFile(Path.of(file), merged, problems);
    }
    environment.forEach((name, value) -> {
      if (KNOWN.contains(name)) merged.put(name, value);
    });
    var loader = new SettingsLoader(merged);
    loader.problems.addAll(problems);
    return loader.build();
  }

  private static void readFile(Path file, Map<String, String> into, List<String> problems) {
    var properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (IOException e) {
      problems.add(CONFIG_FILE_VARIABLE + ": cannot read " + file + " (" + e.getMessage() + ")");
      return;
    }
    for (String name : properties.stringPropertyNames()) {
      if (!KNOWN.contains(name)) {
        problems.add(file + ": unknown setting " + name + " (see README, Settings)");
      } else {
        into.put(name, properties.getProperty(name).trim());
      }
    }
  }

  private Settings build() {
    var redisUrl = uri("TIDINGS_REDIS_URL", Set.of("redis", "rediss"));
    var settings = new Settings(
        jdbcUrl("TIDINGS_DB_URL"),
        text("TIDINGS_DB_USER"),
        text("TIDINGS_DB_PASSWORD").map(Secret::new),
        integer("TIDINGS_DB_POOL_SIZE", Settings.DEFAULT_DB_POOL_SIZE, 1, 500),
        redisUrl,
        uri("TIDINGS_AMQP_URL", Set.of("amqp", "amqps")),
        uri("TIDINGS_SMTP_URL", Set.of("smtp", "smtps")),
        Path.of(text("TIDINGS_DATA_DIR").orElse(Settings.DEFAULT_DATA_DIR))
            .toAbsolutePath()
            .normalize(),
        uri("TIDINGS_PUBLIC_URL", Set.of("http", "https"))
            .orElse(URI.create(Settings.DEFAULT_PUBLIC_URL)),
        uri("TIDINGS_SHOP_URL", Set.of("http", "https")),
        secret("TIDINGS_SECRET", 16),
        secret("TIDINGS_API_KEY", 16),
        integer("TIDINGS_PORT", Settings.DEFAULT_PORT, 0, 65535),
        longValue("TIDINGS_MAX_BODY_BYTES", Settings.DEFAULT_MAX_BODY_BYTES),
        longValue("TIDINGS_MAX_IMPORT_BYTES", Settings.DEFAULT_MAX_IMPORT_BYTES),
        duration("TIDINGS_SHUTDOWN_GRACE", Settings.DEFAULT_SHUTDOWN_GRACE),
        logFormat(),
        openTimeStrategy(redisUrl.isPresent()),
        webhooks(),
        parkedReceiptRetention(),
        smtpProvider(),
        fetchAllow(),
        bind(),
        secret("TIDINGS_METRICS_TOKEN", 16),
        send());
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return settings;
  }

  /**
   * The send pipeline's settings, checked here with the others so a wrong one stops the start; the
   * pipeline reads them from this map (campaign.send.SendOptions), its defaults for those not set.
   */
  private Map<String, String> send() {
    integer("TIDINGS_SEND_PARTITION_SIZE", 1, 1, 1_000_000);
    integer("TIDINGS_SEND_SLOTS", 1, 1, 256);
    integer("TIDINGS_SEND_SENDERS", 1, 1, 1_024);
    integer("TIDINGS_SEND_CHUNK", 1, 1, 10_000);
    Duration lease = duration("TIDINGS_SEND_LEASE_TTL", Duration.ofSeconds(1));
    if (lease.compareTo(Duration.ofSeconds(1)) < 0)
      problems.add("TIDINGS_SEND_LEASE_TTL: must be at least PT1S but was " + lease);
    for (String queue : List.of("TIDINGS_SEND_QUEUE", "TIDINGS_SEND_RECEIPT_QUEUE")) {
      text(queue)
          .filter(name -> !name.matches("[A-Za-z0-9._-]{1,200}"))
          .ifPresent(name -> problems.add(queue
              + ": a queue name of letters, digits, '.', '_' and '-' (at most 200) but was '"
              + name + "'"));
    }
    Map<String, String> send = new java.util.TreeMap<>();
    values.forEach((name, value) -> {
      if (name.startsWith("TIDINGS_SEND_")) send.put(name, value.strip());
    });
    return Map.copyOf(send);
  }

  private Optional<String> text(String name) {
    String value = values.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  private Optional<String> jdbcUrl(String name) {
    return text(name).flatMap(url -> {
      if (url.startsWith("jdbc:postgresql://")) return Optional.of(url);
      if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
        return Optional.of("jdbc:postgresql://" + url.substring(url.indexOf("//") + 2));
      }
      problems.add(name + ": expected jdbc:postgresql://host:port/database but was "
          + Settings.maskUserInfo(url));
      return Optional.empty();
    });
  }

  private Optional<URI> uri(String name, Set<String> schemes) {
    return text(name).flatMap(raw -> {
      try {
        var uri = new URI(raw);
        if (uri.getScheme() == null
            || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))
            || uri.getHost() == null) {
          problems.add(name + ": expected "
              + String.join(" or ", schemes.stream().sorted().toList())
              + " URL with a host but was " + Settings.maskUserInfo(raw));
          return Optional.empty();
        }
        return Optional.of(uri);
      } catch (URISyntaxException e) {
        problems.add(name + ": not a URL (" + e.getReason() + ")");
        return Optional.empty();
      }
    });
  }

  private Optional<Secret> secret(String name, int minLength) {
    return text(name).flatMap(value -> {
      if (value.length() < minLength) {
        problems.add(name + ": must be at least " + minLength + " characters long");
        return Optional.empty();
      }
      return Optional.of(new Secret(value));
    });
  }

  private int integer(String name, int fallback, int min, int max) {
    return text(name)
        .map(raw -> {
          try {
            int value = Integer.parseInt(raw);
            if (value < min || value > max) {
              problems.add(name + ": must be between " + min + " and " + max + " but was " + value);
              return fallback;
            }
            return value;
          } catch (NumberFormatException e) {
            problems.add(name + ": not a whole number: " + raw);
            return fallback;
          }
        })
        .orElse(fallback);
  }

  private long longValue(String name, long fallback) {
    return text(name)
        .map(raw -> {
          try {
            long value = Long.parseLong(raw);
            if (value <= 0) {
              problems.add(name + ": must be positive but was " + value);
              return fallback;
            }
            return value;
          } catch (NumberFormatException e) {
            problems.add(name + ": not a whole number of bytes: " + raw);
            return fallback;
          }
        })
        .orElse(fallback);
  }

  private Duration duration(String name, Duration fallback) {
    return text(name)
        .map(raw -> {
          try {
            Duration value = Duration.parse(raw.toUpperCase(Locale.ROOT));
            if (value.isNegative()) {
              problems.add(name + ": must not be negative");
              return fallback;
            }
            return value;
          } catch (DateTimeParseException e) {
            problems.add(name + ": expected an ISO-8601 duration such as PT10S but was " + raw);
            return fallback;
          }
        })
        .orElse(fallback);
  }

  private Settings.OpenTimeStrategy openTimeStrategy(boolean redisConfigured) {
    var strategy = text("TIDINGS_OPENTIME_STRATEGY")
        .map(raw -> {
          try {
            return Settings.OpenTimeStrategy.valueOf(raw.toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            problems.add("TIDINGS_OPENTIME_STRATEGY: expected tidings or seed but was " + raw);
            return Settings.OpenTimeStrategy.TIDINGS;
          }
        })
        .orElse(Settings.OpenTimeStrategy.TIDINGS);
    if (strategy == Settings.OpenTimeStrategy.SEED
        && !redisConfigured
        && text("TIDINGS_REDIS_URL").isEmpty()) {
      problems.add("TIDINGS_OPENTIME_STRATEGY: seed (the benchmark baseline) needs Redis:"
          + " set TIDINGS_REDIS_URL");
    }
    return strategy;
  }

  private FetchAllowance fetchAllow() {
    String name = "TIDINGS_FETCH_ALLOW";
    try {
      return FetchAllowance.parse(text(name).orElse(""));
    } catch (IllegalArgumentException e) {
      problems.add(name + ": " + e.getMessage()
          + " (expected CIDR ranges such as 10.20.0.0/16, addresses or host names, separated by"
          + " commas)");
      return FetchAllowance.none();
    }
  }

  /** An address of this machine to listen on; absent: every interface, as before the setting. */
  private Optional<InetAddress> bind() {
    String name = "TIDINGS_BIND";
    return text(name).flatMap(raw -> {
      String literal =
          raw.startsWith("[") && raw.endsWith("]") ? raw.substring(1, raw.length() - 1) : raw;
      try {
        InetAddress address = InetAddress.ofLiteral(literal);
        if (!address.isAnyLocalAddress() && NetworkInterface.getByInetAddress(address) == null) {
          problems.add(name + ": " + raw + " is not an address of this machine");
          return Optional.empty();
        }
        return Optional.of(address);
      } catch (IllegalArgumentException | SocketException e) {
        problems.add(name + ": expected an IP address of this machine, such as 127.0.0.1 or"
            + " 0.0.0.0, but was " + raw);
        return Optional.empty();
      }
    });
  }

  private Settings.SmtpProvider smtpProvider() {
    return text("TIDINGS_SMTP_PROVIDER")
        .map(raw -> {
          try {
            return Settings.SmtpProvider.valueOf(raw.toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            problems.add("TIDINGS_SMTP_PROVIDER: expected auto, none, sendgrid, mailgun, postmark"
                + " or ses but was " + raw);
            return Settings.SmtpProvider.AUTO;
          }
        })
        .orElse(Settings.SmtpProvider.AUTO);
  }

  private Duration parkedReceiptRetention() {
    Duration retention =
        duration("TIDINGS_PARKED_RECEIPT_RETENTION", Settings.DEFAULT_PARKED_RECEIPT_RETENTION);
    if (retention.isZero()) {
      problems.add("TIDINGS_PARKED_RECEIPT_RETENTION: must be longer than zero (a receipt may"
          + " arrive before its message's send record)");
      return Settings.DEFAULT_PARKED_RECEIPT_RETENTION;
    }
    return retention;
  }

  private WebhookSettings webhooks() {
    Duration maxAge = duration("TIDINGS_WEBHOOK_MAX_AGE", WebhookSettings.DEFAULT_MAX_AGE);
    if (maxAge.isZero()) {
      problems.add("TIDINGS_WEBHOOK_MAX_AGE: must be longer than zero");
      maxAge = WebhookSettings.DEFAULT_MAX_AGE;
    }
    return new WebhookSettings(
        sendgridPublicKey(),
        sesTopicArns(),
        readableFile("TIDINGS_SES_SIGNING_CERT_FILE"),
        secret("TIDINGS_MAILGUN_SIGNING_KEY", 8),
        postmarkCredentials(),
        maxAge);
  }

  private Optional<PublicKey> sendgridPublicKey() {
    String name = "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY";
    return text(name).flatMap(raw -> {
      // SendGrid shows the key as bare base64 DER; an operator may paste it as PEM as well
      String base64 = raw.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
      try {
        var spec = new X509EncodedKeySpec(Base64.getDecoder().decode(base64));
        return Optional.of(KeyFactory.getInstance("EC").generatePublic(spec));
      } catch (IllegalArgumentException | GeneralSecurityException e) {
        problems.add(name + ": expected the Event Webhook's verification key as base64 DER or PEM"
            + " (an EC public key) but it cannot be read (" + e.getMessage() + ")");
        return Optional.empty();
      }
    });
  }

  private List<String> sesTopicArns() {
    String name = "TIDINGS_SES_TOPIC_ARN";
    var arns = new ArrayList<String>();
    for (String arn : text(name).orElse("").split(",")) {
      String trimmed = arn.trim();
      if (trimmed.isEmpty()) continue;
      if (!trimmed.matches("arn:aws[a-z-]*:sns:[a-z0-9-]+:\\d{12}:[A-Za-z0-9_.-]+")) {
        problems.add(name + ": expected SNS topic ARNs such as"
            + " arn:aws:sns:eu-west-1:123456789012:ses-events, separated by commas, but found "
            + trimmed);
      } else {
        arns.add(trimmed);
      }
    }
    return arns;
  }

  private Optional<Path> readableFile(String name) {
    return text(name).flatMap(raw -> {
      Path path = Path.of(raw).toAbsolutePath().normalize();
      if (!Files.isReadable(path)) {
        problems.add(name + ": cannot read the file " + path);
        return Optional.empty();
      }
      return Optional.of(path);
    });
  }

  private Optional<WebhookSettings.PostmarkCredentials> postmarkCredentials() {
    var user = text("TIDINGS_POSTMARK_WEBHOOK_USER");
    if (user.isPresent() != text("TIDINGS_POSTMARK_WEBHOOK_PASSWORD").isPresent()) {
      problems.add("TIDINGS_POSTMARK_WEBHOOK_USER and TIDINGS_POSTMARK_WEBHOOK_PASSWORD are"
          + " set together or not at all");
      return Optional.empty();
    }
    var password = secret("TIDINGS_POSTMARK_WEBHOOK_PASSWORD", 16);
    if (user.isEmpty() || password.isEmpty()) return Optional.empty();
    if (user.isPresent() && user.get().contains(":")) {
      problems.add("TIDINGS_POSTMARK_WEBHOOK_USER: must not contain ':' (basic auth splits on it)");
      return Optional.empty();
    }
    return Optional.of(new WebhookSettings.PostmarkCredentials(user.get(), password.get()));
  }

  private Settings.LogFormat logFormat() {
    return text("TIDINGS_LOG_FORMAT")
        .map(raw -> {
          try {
            return Settings.LogFormat.valueOf(raw.toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            problems.add("TIDINGS_LOG_FORMAT: expected auto, json or text but was " + raw);
            return Settings.LogFormat.AUTO;
          }
        })
        .orElse(Settings.LogFormat.AUTO);
  }
}
