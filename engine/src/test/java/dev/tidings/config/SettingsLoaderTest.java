package dev.tidings.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsLoaderTest {

  @Test
  void a_redis_cluster_is_named_by_its_seeds_and_its_password_is_never_shown() {
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_REDIS_URL",
        "redis-cluster://:s3cret@10.0.0.1:7000,10.0.0.2:7001,redis-3.internal:7002"));
    var url = RedisClusterUrl.parse(settings.redisUrl().orElseThrow());
    assertThat(url.seeds())
        .containsExactly(
            new RedisClusterUrl.Seed("10.0.0.1", 7000),
            new RedisClusterUrl.Seed("10.0.0.2", 7001),
            new RedisClusterUrl.Seed("redis-3.internal", 7002));
    assertThat(url.password()).hasValueSatisfying(p -> assertThat(p.value()).isEqualTo("s3cret"));
    assertThat(url.user()).isEmpty();
    assertThat(url.tls()).isFalse();
    assertThat(url.toString()).doesNotContain("s3cret");
    assertThat(settings.describe().get("TIDINGS_REDIS_URL"))
        .doesNotContain("s3cret")
        .contains("10.0.0.2:7001");
    assertThat(RedisClusterUrl.parse(URI.create("rediss-cluster://ops:pw@h:1")).tls())
        .isTrue();
  }

  @Test
  void a_bad_seed_in_a_cluster_url_is_named_without_the_password() {
    assertThatThrownBy(() -> SettingsLoader.load(
            Map.of("TIDINGS_REDIS_URL", "redis-cluster://:s3cret@10.0.0.1:7000,10.0.0.2")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .singleElement()
                .satisfies(p -> assertThat(p)
                    .startsWith("TIDINGS_REDIS_URL: every seed of a cluster URL is host:port")
                    .contains("'10.0.0.2'")
                    .doesNotContain("s3cret")));
    assertThatThrownBy(() ->
            SettingsLoader.load(Map.of("TIDINGS_REDIS_URL", "redis-cluster://10.0.0.1:7000/3")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .singleElement()
                .satisfies(p -> assertThat(p).contains("only database 0")));
  }

  @Test
  void nothing_set_means_the_embedded_default() {
    var settings = SettingsLoader.load(Map.of());
    assertThat(settings.embeddedDatabase()).isTrue();
    assertThat(settings.redisUrl()).isEmpty();
    assertThat(settings.amqpUrl()).isEmpty();
    assertThat(settings.smtpUrl()).isEmpty();
    assertThat(settings.port()).isEqualTo(8080);
    assertThat(settings.dataDir()).isEqualTo(Path.of("./data").toAbsolutePath().normalize());
    assertThat(settings.publicUrl().toString()).isEqualTo("http://localhost:8080");
    assertThat(settings.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void production_urls_are_read() {
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL", "postgresql://127.0.0.1:5432/tidings",
        "TIDINGS_REDIS_URL", "redis://127.0.0.1:6379",
        "TIDINGS_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672",
        "TIDINGS_SMTP_URL", "smtp://127.0.0.1:2525",
        "TIDINGS_PORT", "9090"));
    assertThat(settings.dbUrl()).contains("jdbc:postgresql://127.0.0.1:5432/tidings");
    assertThat(settings.redisUrl())
        .hasValueSatisfying(uri -> assertThat(uri.getPort()).isEqualTo(6379));
    assertThat(settings.amqpUrl()).isPresent();
    assertThat(settings.smtpUrl()).isPresent();
    assertThat(settings.port()).isEqualTo(9090);
  }

  @Test
  void every_problem_is_reported_at_once() {
    assertThatThrownBy(() -> SettingsLoader.load(Map.of(
            "TIDINGS_DB_URL", "mysql://x/y",
            "TIDINGS_REDIS_URL", "http://127.0.0.1:6379",
            "TIDINGS_PORT", "eighty",
            "TIDINGS_API_KEY", "short",
            "TIDINGS_SHUTDOWN_GRACE", "10 seconds",
            "TIDINGS_LOG_FORMAT", "xml")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .hasSize(6)
                .anySatisfy(
                    p -> assertThat(p).startsWith("TIDINGS_DB_URL: expected jdbc:postgresql://"))
                .anySatisfy(p ->
                    assertThat(p).startsWith("TIDINGS_REDIS_URL: expected redis or rediss URL"))
                .anySatisfy(
                    p -> assertThat(p).isEqualTo("TIDINGS_PORT: not a whole number: eighty"))
                .anySatisfy(p ->
                    assertThat(p).isEqualTo("TIDINGS_API_KEY: must be at least 16 characters long"))
                .anySatisfy(p -> assertThat(p).contains("ISO-8601 duration"))
                .anySatisfy(p -> assertThat(p).contains("auto, json or text")));
  }

  @Test
  void the_access_log_is_off_unless_asked_for_and_a_wrong_word_is_named() {
    assertThat(SettingsLoader.load(Map.of()).accessLog()).isFalse();
    assertThat(SettingsLoader.load(Map.of("TIDINGS_ACCESS_LOG", "ON")).accessLog())
        .isTrue();
    assertThat(SettingsLoader.load(Map.of("TIDINGS_ACCESS_LOG", "off")).accessLog())
        .isFalse();
    assertThatThrownBy(() -> SettingsLoader.load(Map.of("TIDINGS_ACCESS_LOG", "yes")))
        .hasMessageContaining("TIDINGS_ACCESS_LOG: expected on or off but was yes");
  }

  @Test
  void secrets_never_show_in_descriptions_or_messages() {
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_API_KEY", "my-very-secret-api-key",
        "TIDINGS_DB_PASSWORD", "db-password-value",
        "TIDINGS_AMQP_URL", "amqp://guest:amqp-password@127.0.0.1:5672"));
    String described = settings.describe().toString();
    assertThat(described)
        .doesNotContain("my-very-secret-api-key")
        .doesNotContain("amqp-password")
        .contains("<masked>");
    assertThat(settings.apiKey().orElseThrow().toString()).isEqualTo("<masked>");
    assertThat(settings.toString())
        .doesNotContain("db-password-value")
        .doesNotContain("my-very-secret-api-key");
    assertThatThrownBy(
            () -> SettingsLoader.load(Map.of("TIDINGS_DB_URL", "mysql://root:hunter2@x/y")))
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void a_config_file_supplies_values_and_the_environment_wins(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tidings.properties");
    Files.writeString(file, "TIDINGS_PORT=7070\nTIDINGS_PUBLIC_URL=https://mail.example.com\n");
    var settings =
        SettingsLoader.load(Map.of("TIDINGS_CONFIG", file.toString(), "TIDINGS_PORT", "6060"));
    assertThat(settings.port()).isEqualTo(6060);
    assertThat(settings.publicUrl().toString()).isEqualTo("https://mail.example.com");
  }

  @Test
  void the_send_settings_come_from_the_config_file_too_and_are_checked_at_start(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tidings.properties");
    Files.writeString(file, "TIDINGS_SEND_CHUNK=50\nTIDINGS_SEND_LEASE_TTL=PT30S\n");
    var settings =
        SettingsLoader.load(Map.of("TIDINGS_CONFIG", file.toString(), "TIDINGS_SEND_SLOTS", "4"));
    assertThat(settings.send())
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "TIDINGS_SEND_CHUNK", "50",
            "TIDINGS_SEND_LEASE_TTL", "PT30S",
            "TIDINGS_SEND_SLOTS", "4"));

    assertThatThrownBy(() -> SettingsLoader.load(Map.of(
            "TIDINGS_SEND_SLOTS", "0",
            "TIDINGS_SEND_CHUNK", "ten",
            "TIDINGS_SEND_LEASE_TTL", "PT0.1S",
            "TIDINGS_SEND_QUEUE", "a queue")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("TIDINGS_SEND_SLOTS: must be between 1 and 256 but was 0")
        .hasMessageContaining("TIDINGS_SEND_CHUNK: not a whole number: ten")
        .hasMessageContaining("TIDINGS_SEND_LEASE_TTL: must be at least PT1S")
        .hasMessageContaining("TIDINGS_SEND_QUEUE: a queue name");
  }

  @Test
  void an_unknown_name_in_the_config_file_is_an_error(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tidings.properties");
    Files.writeString(file, "TIDINGS_PROT=7070\n");
    assertThatThrownBy(() -> SettingsLoader.load(Map.of("TIDINGS_CONFIG", file.toString())))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown setting TIDINGS_PROT");
  }

  /** SendGrid's published test key (sendgrid-java's Event Webhook test), as SendGrid shows it. */
  private static final String SENDGRID_KEY =
      "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE83T4O/n84iotIvIW4mdBgQ/7dAfSmpqIM8kF9mN1flpVKS3GRqe62gw+2fNNRaINXvVpiglSI8eNEc6wEA3F+g==";

  @Test
  void no_webhook_settings_leave_every_provider_off() {
    var webhooks = SettingsLoader.load(Map.of()).webhooks();
    assertThat(webhooks.sendgridPublicKey()).isEmpty();
    assertThat(webhooks.sesTopicArns()).isEmpty();
    assertThat(webhooks.mailgunSigningKey()).isEmpty();
    assertThat(webhooks.postmark()).isEmpty();
    assertThat(webhooks.maxAge()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void webhook_settings_are_read_and_secrets_masked() {
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY",
        "-----BEGIN PUBLIC KEY-----\n" + SENDGRID_KEY + "\n-----END PUBLIC KEY-----",
        "TIDINGS_SES_TOPIC_ARN",
        "arn:aws:sns:eu-west-1:123456789012:ses-events, arn:aws:sns:us-east-1:123456789012:b",
        "TIDINGS_MAILGUN_SIGNING_KEY",
        "mailgun-signing-key-value",
        "TIDINGS_POSTMARK_WEBHOOK_USER",
        "postmark",
        "TIDINGS_POSTMARK_WEBHOOK_PASSWORD",
        "postmark-password-value",
        "TIDINGS_WEBHOOK_MAX_AGE",
        "PT2M"));
    var webhooks = settings.webhooks();
    assertThat(webhooks.sendgridPublicKey())
        .hasValueSatisfying(key -> assertThat(key.getAlgorithm()).isEqualTo("EC"));
    assertThat(webhooks.sesTopicArns())
        .containsExactly(
            "arn:aws:sns:eu-west-1:123456789012:ses-events",
            "arn:aws:sns:us-east-1:123456789012:b");
    assertThat(webhooks.postmark().orElseThrow().user()).isEqualTo("postmark");
    assertThat(webhooks.maxAge()).isEqualTo(Duration.ofMinutes(2));
    assertThat(settings.describe().toString() + settings)
        .doesNotContain("mailgun-signing-key-value")
        .doesNotContain("postmark-password-value");
  }

  @Test
  void parked_receipts_wait_a_week_unless_configured_and_never_zero() {
    assertThat(SettingsLoader.load(Map.of()).parkedReceiptRetention())
        .isEqualTo(Duration.ofDays(7));
    assertThat(SettingsLoader.load(Map.of("TIDINGS_PARKED_RECEIPT_RETENTION", "P2D"))
            .parkedReceiptRetention())
        .isEqualTo(Duration.ofDays(2));
    for (String bad : List.of("PT0S", "-P1D", "a week"))
      assertThatThrownBy(() -> SettingsLoader.load(Map.of("TIDINGS_PARKED_RECEIPT_RETENTION", bad)))
          .as(bad)
          .isInstanceOfSatisfying(
              ConfigException.class,
              e -> assertThat(e.problems())
                  .singleElement()
                  .satisfies(p -> assertThat(p).startsWith("TIDINGS_PARKED_RECEIPT_RETENTION")));
  }

  @Test
  void the_smtp_provider_is_auto_unless_one_is_named() {
    assertThat(SettingsLoader.load(Map.of()).smtpProvider()).isEqualTo(Settings.SmtpProvider.AUTO);
    assertThat(SettingsLoader.load(Map.of("TIDINGS_SMTP_PROVIDER", "SendGrid")).smtpProvider())
        .isEqualTo(Settings.SmtpProvider.SENDGRID);
    assertThat(SettingsLoader.load(Map.of("TIDINGS_SMTP_PROVIDER", "none")).smtpProvider())
        .isEqualTo(Settings.SmtpProvider.NONE);
    assertThatThrownBy(() -> SettingsLoader.load(Map.of("TIDINGS_SMTP_PROVIDER", "sparkpost")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .singleElement()
                .satisfies(p -> assertThat(p)
                    .startsWith("TIDINGS_SMTP_PROVIDER: expected auto, none, sendgrid")));
  }

  @Test
  void fetch_allow_is_read_and_a_bad_range_is_a_configuration_error_naming_it() {
    assertThat(SettingsLoader.load(Map.of()).fetchAllow().isEmpty()).isTrue();
    assertThat(SettingsLoader.load(Map.of("TIDINGS_FETCH_ALLOW", "10.20.0.0/16,images.internal"))
            .fetchAllow()
            .entries())
        .hasSize(2);
    assertThatThrownBy(() -> SettingsLoader.load(Map.of("TIDINGS_FETCH_ALLOW", "10.0.0.0/40")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .singleElement()
                .satisfies(
                    p -> assertThat(p).startsWith("TIDINGS_FETCH_ALLOW").contains("10.0.0.0/40")));
  }

  @Test
  void bad_webhook_settings_are_reported_together() {
    assertThatThrownBy(() -> SettingsLoader.load(Map.of(
            "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY", "not-a-key",
            "TIDINGS_SES_TOPIC_ARN", "ses-events",
            "TIDINGS_SES_SIGNING_CERT_FILE", "/nonexistent/sns.pem",
            "TIDINGS_POSTMARK_WEBHOOK_USER", "postmark",
            "TIDINGS_WEBHOOK_MAX_AGE", "PT0S")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .hasSize(5)
                .anySatisfy(p -> assertThat(p).startsWith("TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY"))
                .anySatisfy(p -> assertThat(p).startsWith("TIDINGS_SES_TOPIC_ARN"))
                .anySatisfy(p -> assertThat(p).startsWith("TIDINGS_SES_SIGNING_CERT_FILE"))
                .anySatisfy(p -> assertThat(p).contains("set together"))
                .anySatisfy(p -> assertThat(p).startsWith("TIDINGS_WEBHOOK_MAX_AGE")));
  }

  @Test
  void an_amqp_url_may_name_several_nodes_of_a_cluster_and_quorum_queues() {
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_AMQP_URL", "amqp://tidings:s3cret@h1:5672,h2:5673,h3:5674/prod",
        "TIDINGS_AMQP_QUEUE_TYPE", "quorum"));
    assertThat(settings.amqpUrl()).isPresent();
    assertThat(settings.amqpQueueType()).isEqualTo(Settings.AmqpQueueType.QUORUM);
    assertThat(settings.describe().get("TIDINGS_AMQP_URL"))
        .doesNotContain("s3cret")
        .contains("h1:5672,h2:5673");
    assertThat(SettingsLoader.load(Map.of()).amqpQueueType())
        .isEqualTo(Settings.AmqpQueueType.CLASSIC);
  }

  @Test
  void a_wrong_node_list_or_queue_type_is_refused_by_name_without_the_password() {
    assertThatThrownBy(() -> SettingsLoader.load(Map.of(
            "TIDINGS_AMQP_URL", "amqp://tidings:s3cret@h1:5672,,h3:99999/prod",
            "TIDINGS_AMQP_QUEUE_TYPE", "mirrored")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.problems())
                .hasSize(2)
                .allSatisfy(p -> assertThat(p).doesNotContain("s3cret"))
                .anySatisfy(p -> assertThat(p).startsWith("TIDINGS_AMQP_URL: expected amqp://"))
                .anySatisfy(p -> assertThat(p)
                    .isEqualTo(
                        "TIDINGS_AMQP_QUEUE_TYPE: expected classic or quorum but was mirrored")));
  }
}
