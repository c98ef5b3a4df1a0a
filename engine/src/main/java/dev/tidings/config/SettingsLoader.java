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
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads {@link Settings} from environment variables and, when {@code TIDINGS_CONFIG} names one, a
 * properties file with the same names. The environment wins over the file. Every problem is collected
 * and reported together.
 */
public final class SettingsLoader {
  public static final String CONFIG_FILE_VARIABLE = SettingsCatalog.CONFIG.name();

  private static final Set<String> KNOWN =
      SettingsCatalog.ALL.stream().map(Setting::name).collect(Collectors.toUnmodifiableSet());

  private static final Set<String> SEND = Stream.of(
          SettingsCatalog.SEND_PARTITION_SIZE,
          SettingsCatalog.SEND_LEASE_TTL,
          SettingsCatalog.SEND_SLOTS,
          SettingsCatalog.SEND_SENDERS,
          SettingsCatalog.SEND_CHUNK,
          SettingsCatalog.SEND_QUEUE,
          SettingsCatalog.SEND_RECEIPT_QUEUE)
      .map(Setting::name)
      .collect(Collectors.toUnmodifiableSet());

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
    var redisUrl = redisUrl();
    var settings = new Settings(
        jdbcUrl(SettingsCatalog.DB_URL),
        readUrl(),
        text(SettingsCatalog.DB_USER),
        secret(SettingsCatalog.DB_PASSWORD),
        integer(SettingsCatalog.DB_POOL_SIZE),
        redisUrl,
        amqpUrl(),
        amqpQueueType(),
        uri(SettingsCatalog.SMTP_URL, Set.of("smtp", "smtps")),
        Path.of(text(SettingsCatalog.DATA_DIR).orElse(Settings.DEFAULT_DATA_DIR))
            .toAbsolutePath()
            .normalize(),
        uri(SettingsCatalog.PUBLIC_URL, Set.of("http", "https"))
            .orElse(URI.create(Settings.DEFAULT_PUBLIC_URL)),
        uri(SettingsCatalog.SHOP_URL, Set.of("http", "https")),
        secret(SettingsCatalog.SECRET),
        secret(SettingsCatalog.API_KEY),
        integer(SettingsCatalog.PORT),
        longValue(SettingsCatalog.MAX_BODY_BYTES),
        longValue(SettingsCatalog.MAX_IMPORT_BYTES),
        duration(SettingsCatalog.SHUTDOWN_GRACE),
        logFormat(),
        accessLog(),
        webhooks(),
        parkedReceiptRetention(),
        new RetentionSettings(
            duration(SettingsCatalog.RETENTION_MESSAGES),
            duration(SettingsCatalog.RETENTION_EVENTS),
            duration(SettingsCatalog.RETENTION_DEAD_LETTERS),
            duration(SettingsCatalog.RETENTION_EVENT_LOG),
            duration(SettingsCatalog.RETENTION_INTERVAL),
            integer(SettingsCatalog.RETENTION_BATCH)),
        smtpProvider(),
        fetchAllow(),
        bind(),
        secret(SettingsCatalog.METRICS_TOKEN),
        send(),
        integer(SettingsCatalog.RECOMMEND_WARM_ENTRIES),
        integer(SettingsCatalog.TEST_SENDS_PER_MINUTE),
        catalog());
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
    for (Setting number : List.of(
        SettingsCatalog.SEND_PARTITION_SIZE,
        SettingsCatalog.SEND_SLOTS,
        SettingsCatalog.SEND_SENDERS,
        SettingsCatalog.SEND_CHUNK)) integer(number);
    duration(SettingsCatalog.SEND_LEASE_TTL);
    for (Setting queue : List.of(SettingsCatalog.SEND_QUEUE, SettingsCatalog.SEND_RECEIPT_QUEUE)) {
      text(queue)
          .filter(name -> !name.matches("[A-Za-z0-9._-]{1,190}"))
          .ifPresent(name -> problems.add(queue.name()
              + ": a queue name of letters, digits, '.', '_' and '-' (at most 190) but was '"
              + name + "'"));
    }
    Map<String, String> send = new TreeMap<>();
    values.forEach((name, value) -> {
      if (SEND.contains(name)) send.put(name, value.strip());
    });
    return Map.copyOf(send);
  }

  private Optional<String> text(Setting setting) {
    String value = values.get(setting.name());
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  private Optional<String> jdbcUrl(Setting name) {
    return text(name).flatMap(raw -> {
      String url = raw;
      if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
        url = "jdbc:postgresql://" + url.substring(url.indexOf("//") + 2);
      }
      if (!url.startsWith("jdbc:postgresql://")) {
        problems.add(name.name() + ": expected jdbc:postgresql://host:port/database but was "
            + Settings.maskUserInfo(raw));
        return Optional.empty();
      }
      var problem = hostListProblem(url);
      if (problem.isPresent()) {
        problems.add(name.name() + ": " + problem.get() + " in " + Settings.maskUserInfo(raw));
        return Optional.empty();
      }
      return Optional.of(url);
    });
  }

  /** A read URL only makes sense beside a configured database: the embedded one has no standby. */
  private Optional<String> readUrl() {
    var url = jdbcUrl(SettingsCatalog.DB_READ_URL);
    if (url.isPresent() && text(SettingsCatalog.DB_URL).isEmpty()) {
      problems.add(SettingsCatalog.DB_READ_URL.name() + ": needs " + SettingsCatalog.DB_URL.name()
          + " (the embedded PostgreSQL has no standby)");
      return Optional.empty();
    }
    return url;
  }

  private static final Pattern HOST =
      Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._%-]+)(:([0-9]{1,5}))?");

  /**
   * What is wrong with a JDBC URL's host list, if anything: each of the comma-separated servers
   * ({@code h1:5432,h2:5432}) must be {@code host} or {@code host:port} with a port from 1 to 65535,
   * and a database must follow.
   */
  static Optional<String> hostListProblem(String jdbcUrl) {
    String rest = jdbcUrl.substring("jdbc:postgresql://".length());
    int slash = rest.indexOf('/');
    int at = rest.indexOf('@');
    if (at >= 0 && (slash < 0 || at < slash)) rest = rest.substring(at + 1);
    slash = rest.indexOf('/');
    if (slash < 0) return Optional.of("no /database after the host list");
    String hostList = rest.substring(0, slash);
    if (hostList.isEmpty()) return Optional.of("no host");
    for (String host : hostList.split(",", -1)) {
      var matcher = HOST.matcher(host);
      if (!matcher.matches()) return Optional.of("'" + host + "' is not host or host:port");
      if (matcher.group(3) != null) {
        int port = Integer.parseInt(matcher.group(3));
        if (port < 1 || port > 65535)
          return Optional.of("port " + port + " of '" + host + "' is not 1 to 65535");
      }
    }
    return Optional.empty();
  }

  /** One Redis ({@code redis://}, {@code rediss://}) or a cluster named by its seeds. */
  private Optional<URI> redisUrl() {
    Setting name = SettingsCatalog.REDIS_URL;
    Optional<String> raw = text(name);
    if (raw.isEmpty()) return Optional.empty();
    URI uri;
    try {
      uri = new URI(raw.get());
    } catch (URISyntaxException e) {
      problems.add(name.name() + ": not a URL (" + e.getReason() + ")");
      return Optional.empty();
    }
    if (!RedisClusterUrl.names(uri)) {
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("redis") || scheme.equals("rediss")) && uri.getHost() != null)
        return Optional.of(uri);
      problems.add(name.name() + ": expected redis or rediss URL with a host, or a cluster as"
          + " redis-cluster://host:port,host:port,... but was " + Settings.maskUserInfo(raw.get()));
      return Optional.empty();
    }
    try {
      RedisClusterUrl.parse(uri);
      return Optional.of(uri);
    } catch (IllegalArgumentException e) {
      problems.add(name.name() + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<URI> uri(Setting name, Set<String> schemes) {
    return text(name).flatMap(raw -> {
      try {
        var uri = new URI(raw);
        if (uri.getScheme() == null
            || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))
            || uri.getHost() == null) {
          problems.add(name.name() + ": expected "
              + String.join(" or ", schemes.stream().sorted().toList())
              + " URL with a host but was " + Settings.maskUserInfo(raw));
          return Optional.empty();
        }
        return Optional.of(uri);
      } catch (URISyntaxException e) {
        problems.add(name.name() + ": not a URL (" + e.getReason() + ")");
        return Optional.empty();
      }
    });
  }

  private Optional<Secret> secret(Setting name) {
    long minLength = name.min();
    return text(name).flatMap(value -> {
      if (value.length() < minLength) {
        problems.add(name.name() + ": must be at least " + minLength + " characters long");
        return Optional.empty();
      }
      return Optional.of(new Secret(value));
    });
  }

  private int integer(Setting name) {
    int fallback = name.intDefault();
    long min = name.min();
    long max = name.max();
    return text(name)
        .map(raw -> {
          try {
            int value = Integer.parseInt(raw);
            if (value < min || value > max) {
              problems.add(
                  name.name() + ": must be between " + min + " and " + max + " but was " + value);
              return fallback;
            }
            return value;
          } catch (NumberFormatException e) {
            problems.add(name.name() + ": not a whole number: " + raw);
            return fallback;
          }
        })
        .orElse(fallback);
  }

  private long longValue(Setting name) {
    long fallback = name.longDefault();
    return text(name)
        .map(raw -> {
          try {
            long value = Long.parseLong(raw);
            if (value <= 0) {
              problems.add(name.name() + ": must be positive but was " + value);
              return fallback;
            }
            return value;
          } catch (NumberFormatException e) {
            problems.add(name.name() + ": not a whole number of bytes: " + raw);
            return fallback;
          }
        })
        .orElse(fallback);
  }

  private Duration duration(Setting name) {
    Duration fallback = name.durationDefault();
    Duration shortest = Duration.ofSeconds(name.min());
    return text(name)
        .map(raw -> {
          try {
            Duration value = Duration.parse(raw.toUpperCase(Locale.ROOT));
            if (value.isNegative()) {
              problems.add(name.name() + ": must not be negative");
              return fallback;
            }
            if (value.compareTo(shortest) < 0) {
              problems.add(name.name() + ": must be at least " + shortest + " but was " + value);
              return fallback;
            }
            return value;
          } catch (DateTimeParseException e) {
            problems.add(
                name.name() + ": expected an ISO-8601 duration such as PT10S but was " + raw);
            return fallback;
          }
        })
        .orElse(fallback);
  }

  private FetchAllowance fetchAllow() {
    Setting name = SettingsCatalog.FETCH_ALLOW;
    try {
      return FetchAllowance.parse(text(name).orElse(""));
    } catch (IllegalArgumentException e) {
      problems.add(name.name() + ": " + e.getMessage()
          + " (expected CIDR ranges such as 10.20.0.0/16, addresses or host names, separated by"
          + " commas)");
      return FetchAllowance.none();
    }
  }

  /** An address of this machine to listen on; absent: every interface, as before the setting. */
  private Optional<InetAddress> bind() {
    Setting name = SettingsCatalog.BIND;
    return text(name).flatMap(raw -> {
      String literal =
          raw.startsWith("[") && raw.endsWith("]") ? raw.substring(1, raw.length() - 1) : raw;
      try {
        InetAddress address = InetAddress.ofLiteral(literal);
        if (!address.isAnyLocalAddress() && NetworkInterface.getByInetAddress(address) == null) {
          problems.add(name.name() + ": " + raw + " is not an address of this machine");
          return Optional.empty();
        }
        return Optional.of(address);
      } catch (IllegalArgumentException | SocketException e) {
        problems.add(name.name() + ": expected an IP address of this machine, such as 127.0.0.1 or"
            + " 0.0.0.0, but was " + raw);
        return Optional.empty();
      }
    });
  }

  /** Node list of an AMQP URL's authority: {@code host[:port]} or {@code [ipv6][:port]}, comma-separated. */
  private static final Pattern AMQP_NODE =
      Pattern.compile("(\\[[0-9A-Fa-f:.%]+]|[A-Za-z0-9._-]+)(:([0-9]{1,5}))?");

  /** One node or several of a cluster, see {@link SettingsCatalog#AMQP_URL}. */
  private Optional<URI> amqpUrl() {
    Setting setting = SettingsCatalog.AMQP_URL;
    return text(setting).flatMap(raw -> {
      String expected = setting.name()
          + ": expected amqp://user:pass@host:5672/vhost or amqp://user:pass@h1:5672,h2:5672/vhost but was "
          + Settings.maskUserInfo(raw);
      URI uri;
      try {
        uri = new URI(raw);
      } catch (URISyntaxException e) {
        problems.add(expected + " (" + e.getReason() + ")");
        return Optional.empty();
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      String authority = uri.getRawAuthority();
      if (!Set.of("amqp", "amqps").contains(scheme) || authority == null) {
        problems.add(expected);
        return Optional.empty();
      }
      for (String node : authority.substring(authority.lastIndexOf('@') + 1).split(",", -1)) {
        var matcher = AMQP_NODE.matcher(node.strip());
        if (!matcher.matches()
            || (matcher.group(3) != null
                && (Integer.parseInt(matcher.group(3)) < 1
                    || Integer.parseInt(matcher.group(3)) > 65_535))) {
          problems.add(expected + " ('" + node + "' is not host or host:port)");
          return Optional.empty();
        }
      }
      return Optional.of(uri);
    });
  }

  private Settings.AmqpQueueType amqpQueueType() {
    return text(SettingsCatalog.AMQP_QUEUE_TYPE)
        .map(raw -> {
          try {
            return Settings.AmqpQueueType.valueOf(raw.toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            problems.add(SettingsCatalog.AMQP_QUEUE_TYPE.name()
                + ": expected classic or quorum but was " + raw);
            return Settings.AmqpQueueType.CLASSIC;
          }
        })
        .orElse(Settings.AmqpQueueType.CLASSIC);
  }

  private Settings.SmtpProvider smtpProvider() {
    return text(SettingsCatalog.SMTP_PROVIDER)
        .map(raw -> {
          try {
            return Settings.SmtpProvider.valueOf(raw.toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            problems.add(SettingsCatalog.SMTP_PROVIDER.name()
                + ": expected auto, none, sendgrid, mailgun, postmark" + " or ses but was " + raw);
            return Settings.SmtpProvider.AUTO;
          }
        })
        .orElse(Settings.SmtpProvider.AUTO);
  }

  private Duration parkedReceiptRetention() {
    Duration retention = duration(SettingsCatalog.PARKED_RECEIPT_RETENTION);
    if (retention.isZero()) {
      problems.add(SettingsCatalog.PARKED_RECEIPT_RETENTION.name()
          + ": must be longer than zero (a receipt may"
          + " arrive before its message's send record)");
      return SettingsCatalog.PARKED_RECEIPT_RETENTION.durationDefault();
    }
    return retention;
  }

  private WebhookSettings webhooks() {
    Duration maxAge = duration(SettingsCatalog.WEBHOOK_MAX_AGE);
    if (maxAge.isZero()) {
      problems.add(SettingsCatalog.WEBHOOK_MAX_AGE.name() + ": must be longer than zero");
      maxAge = SettingsCatalog.WEBHOOK_MAX_AGE.durationDefault();
    }
    return new WebhookSettings(
        sendgridPublicKey(),
        sesTopicArns(),
        readableFile(SettingsCatalog.SES_SIGNING_CERT_FILE),
        secret(SettingsCatalog.MAILGUN_SIGNING_KEY),
        postmarkCredentials(),
        maxAge);
  }

  private Optional<PublicKey> sendgridPublicKey() {
    Setting name = SettingsCatalog.SENDGRID_WEBHOOK_PUBLIC_KEY;
    return text(name).flatMap(raw -> {
      // SendGrid shows the key as bare base64 DER; an operator may paste it as PEM as well
      String base64 = raw.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
      try {
        var spec = new X509EncodedKeySpec(Base64.getDecoder().decode(base64));
        return Optional.of(KeyFactory.getInstance("EC").generatePublic(spec));
      } catch (IllegalArgumentException | GeneralSecurityException e) {
        problems.add(
            name.name() + ": expected the Event Webhook's verification key as base64 DER or PEM"
                + " (an EC public key) but it cannot be read (" + e.getMessage() + ")");
        return Optional.empty();
      }
    });
  }

  private List<String> sesTopicArns() {
    Setting name = SettingsCatalog.SES_TOPIC_ARN;
    var arns = new ArrayList<String>();
    for (String arn : text(name).orElse("").split(",")) {
      String trimmed = arn.trim();
      if (trimmed.isEmpty()) continue;
      if (!trimmed.matches("arn:aws[a-z-]*:sns:[a-z0-9-]+:\\d{12}:[A-Za-z0-9_.-]+")) {
        problems.add(name.name() + ": expected SNS topic ARNs such as"
            + " arn:aws:sns:eu-west-1:123456789012:ses-events, separated by commas, but found "
            + trimmed);
      } else {
        arns.add(trimmed);
      }
    }
    return arns;
  }

  private Optional<Path> readableFile(Setting name) {
    return text(name).flatMap(raw -> {
      Path path = Path.of(raw).toAbsolutePath().normalize();
      if (!Files.isReadable(path)) {
        problems.add(name.name() + ": cannot read the file " + path);
        return Optional.empty();
      }
      return Optional.of(path);
    });
  }

  private Optional<WebhookSettings.PostmarkCredentials> postmarkCredentials() {
    var user = text(SettingsCatalog.POSTMARK_WEBHOOK_USER);
    if (user.isPresent() != text(SettingsCatalog.POSTMARK_WEBHOOK_PASSWORD).isPresent()) {
      problems.add(SettingsCatalog.POSTMARK_WEBHOOK_USER.name() + " and "
          + SettingsCatalog.POSTMARK_WEBHOOK_PASSWORD.name() + " are"
          + " set together or not at all");
      return Optional.empty();
    }
    var password = secret(SettingsCatalog.POSTMARK_WEBHOOK_PASSWORD);
    if (user.isEmpty() || password.isEmpty()) return Optional.empty();
    if (user.isPresent() && user.get().contains(":")) {
      problems.add(SettingsCatalog.POSTMARK_WEBHOOK_USER.name()
          + ": must not contain ':' (basic auth splits on it)");
      return Optional.empty();
    }
    return Optional.of(new WebhookSettings.PostmarkCredentials(user.get(), password.get()));
  }

  private CatalogSettings catalog() {
    long maxBytes = longValue(SettingsCatalog.PRODUCT_FEED_MAX_BYTES);
    if (maxBytes >= Integer.MAX_VALUE) {
      problems.add(SettingsCatalog.PRODUCT_FEED_MAX_BYTES.name() + ": must be below 2 GiB but was "
          + maxBytes);
      maxBytes = SettingsCatalog.PRODUCT_FEED_MAX_BYTES.longDefault();
    }
    boolean backInStock = text(SettingsCatalog.BACK_IN_STOCK_NEWS)
        .map(raw -> switch (raw.toLowerCase(Locale.ROOT)) {
          case "true" -> true;
          case "false" -> false;
          default -> {
            problems.add(SettingsCatalog.BACK_IN_STOCK_NEWS.name()
                + ": expected true or false but was " + raw);
            yield false;
          }
        })
        .orElse(false);
    return new CatalogSettings(
        uri(SettingsCatalog.PRODUCT_FEED_URL, Set.of("http", "https")),
        duration(SettingsCatalog.PRODUCT_FEED_INTERVAL),
        maxBytes,
        backInStock);
  }

  private boolean accessLog() {
    return text(SettingsCatalog.ACCESS_LOG)
        .map(raw -> switch (raw.toLowerCase(Locale.ROOT)) {
          case "on" -> true;
          case "off" -> false;
          default -> {
            problems.add(SettingsCatalog.ACCESS_LOG.name() + ": expected on or off but was " + raw);
            yield false;
          }
        })
        .orElse(false);
  }

  private Settings.LogFormat logFormat() {
    return text(SettingsCatalog.LOG_FORMAT)
        .map(raw -> {
          try {
            return Settings.LogFormat.valueOf(raw.toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            problems.add(
                SettingsCatalog.LOG_FORMAT.name() + ": expected auto, json or text but was " + raw);
            return Settings.LogFormat.AUTO;
          }
        })
        .orElse(Settings.LogFormat.AUTO);
  }
}
