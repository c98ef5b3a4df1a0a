package dev.tidings.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.tidings.config.SettingsLoader;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.postgres.PostgresCountdown;
import dev.tidings.mail.Address;
import dev.tidings.mail.CountedMailTransport;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import dev.tidings.mail.smtp.SmtpMailTransport;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.testing.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Production mode: with the four URLs set, one node uses the machine's PostgreSQL, Redis and RabbitMQ
 * and a real SMTP server instead of the embedded defaults, and reports each in its health checks.
 */
class ProductionNodeIT {
  @TempDir
  Path dataDir;

  @Test
  void the_four_urls_switch_every_port_to_its_real_server() throws Exception {
    RealServers.requirePostgres();
    RealServers.requireRedis();
    RealServers.requireRabbitMq();
    var smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
    try {
      Map<String, String> environment = new HashMap<>();
      environment.put("TIDINGS_DATA_DIR", dataDir.toString());
      environment.put("TIDINGS_DB_URL", RealServers.postgresJdbcUrl());
      environment.put("TIDINGS_REDIS_URL", RealServers.redisUrl().toString());
      environment.put("TIDINGS_AMQP_URL", RealServers.amqpUrl().toString());
      environment.put("TIDINGS_SMTP_URL", "smtp://127.0.0.1:" + smtp.getSmtp().getPort());
      try (var node = new Infrastructure(SettingsLoader.load(environment))) {
        node.openAll();
        assertThat(node.settings().embeddedDatabase()).isFalse();
        assertThat(node.dependencyChecks())
            .extracting(check -> check.name())
            .containsExactlyInAnyOrder("postgresql", "redis", "rabbitmq", "mail");
        assertThat(node.dependencyChecks())
            .allSatisfy(
                check -> assertThat(check.problem().get()).as(check.name()).isEmpty());

        String key = "production-node-" + UUID.randomUUID();
        var timings = new ComputeOnce.Timings(
            Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(2));
        assertThat(node.coordination()
                .computeOnce()
                .computeOnce(key, timings, () -> "first")
                .valueIfAny())
            .contains("first");
        assertThat(node.coordination()
                .computeOnce()
                .computeOnce(key, timings, () -> "second")
                .valueIfAny())
            .contains("first");

        assertThat(node.coordination().countdown())
            .as("countdowns stay in PostgreSQL even with Redis configured")
            .isInstanceOf(PostgresCountdown.class);

        assertThat(node.workQueue()).isInstanceOf(RabbitWorkQueue.class);
        String queue = "production-node-" + UUID.randomUUID();
        node.workQueue().declare(QueueSpec.of(queue));
        node.workQueue().publish(queue, Message.of("over rabbitmq".getBytes(UTF_8), 1));
        var received = new ArrayBlockingQueue<String>(1);
        try (var _ = node.workQueue().subscribe(queue, 1, 1, delivery -> {
          received.add(new String(delivery.body(), UTF_8));
          return Disposition.ACK;
        })) {
          assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("over rabbitmq");
        } finally {
          node.workQueue().delete(queue);
        }

        assertThat(node.mail())
            .isInstanceOfSatisfying(
                CountedMailTransport.class,
                counted -> assertThat(counted.transport()).isInstanceOf(SmtpMailTransport.class));
        var sent = node.mail()
            .send(new OutgoingEmail(
                "prod-node-1",
                Address.of("news@shop.example"),
                Address.of("ada@example.com"),
                "Hello",
                "Plain text",
                Optional.empty(),
                Map.of()));
        assertThat(sent).isInstanceOf(SendResult.Accepted.class);
        assertThat(smtp.waitForIncomingEmail(10_000, 1)).isTrue();
        assertThat(smtp.getReceivedMessages()[0].getSubject()).isEqualTo("Hello");
      }
    } finally {
      smtp.stop();
    }
  }
}
