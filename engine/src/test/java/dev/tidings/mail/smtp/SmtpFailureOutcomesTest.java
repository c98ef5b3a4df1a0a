package dev.tidings.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.tidings.mail.Address;
import dev.tidings.mail.Handover;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import dev.tidings.testing.StartsServers;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How SMTP replies and broken connections map to outcomes, against a server scripted to misbehave. */
@StartsServers
class SmtpFailureOutcomesTest {
  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final OutgoingEmail EMAIL = new OutgoingEmail(
      "m-1",
      Address.of("news@shop.example"),
      Address.of("ann@example.com"),
      "Hello",
      "Hi Ann",
      Optional.of("<p>Hi Ann</p>"),
      Map.of());

  private ScriptedSmtpServer server;
  private SmtpMailTransport transport;

  @BeforeEach
  void start() throws IOException {
    server = ScriptedSmtpServer.start();
    transport = transportFor(server.port());
  }

  @AfterEach
  void stop() throws IOException {
    transport.close();
    server.close();
  }

  private static SmtpMailTransport transportFor(int port) {
    return transportFor(port, "connectTimeoutMs=1000&readTimeoutMs=1000&writeTimeoutMs=1000");
  }

  private static SmtpMailTransport transportFor(int port, String timeouts) {
    return SmtpMailTransport.fromUrl(
        URI.create("smtp://127.0.0.1:" + port + "?pool=2&helo=test.example&" + timeouts),
        InstantSource.fixed(Instant.parse("2026-03-14T09:00:00Z")));
  }

  /** Replaces the transport for one test that needs other timeouts. */
  private void useTimeouts(String timeouts) {
    transport.close();
    transport = transportFor(server.port(), timeouts);
  }

  private SendResult send() {
    return assertTimeoutPreemptively(BOUND, () -> transport.send(EMAIL));
  }

  @Test
  void accepted_carries_the_servers_reply() {
    assertThat(send()).isEqualTo(new SendResult.Accepted("m-1", "250 2.0.0 queued as 42"));
    assertThat(server.accepted).hasValue(1);
  }

  @Test
  void a_message_withheld_at_its_handover_never_gets_its_end_of_data_so_the_server_takes_nothing() {
    var asked = new AtomicInteger();
    SendResult result = assertTimeoutPreemptively(
        BOUND,
        () -> transport.send(EMAIL, () -> {
          asked.incrementAndGet();
          return false;
        }));
    assertThat(result).isInstanceOf(SendResult.Withheld.class);
    assertThat(asked).hasValue(1);
    assertThat(server.accepted).hasValue(0);
    // the next message goes out as usual
    assertThat(send()).isInstanceOf(SendResult.Accepted.class);
    assertThat(server.accepted).hasValue(1);
  }

  @Test
  void the_handover_begins_with_the_transaction_and_decides_before_the_server_has_the_message() {
    var events = new CopyOnWriteArrayList<String>();
    SendResult result = assertTimeoutPreemptively(
        BOUND,
        () -> transport.send(EMAIL, new Handover() {
          @Override
          public void begin() {
            events.add("begin, accepted " + server.accepted.get());
          }

          @Override
          public boolean proceed() {
            events.add("proceed, accepted " + server.accepted.get());
            return true;
          }
        }));
    assertThat(result).isInstanceOf(SendResult.Accepted.class);
    assertThat(events).containsExactly("begin, accepted 0", "proceed, accepted 0");
    assertThat(server.accepted).hasValue(1);
  }

  @Test
  void the_handover_is_asked_only_once_the_server_took_the_recipient() {
    server.rcptReply = "550 5.1.1 no such user";
    var asked = new AtomicInteger();
    SendResult result = assertTimeoutPreemptively(
        BOUND,
        () -> transport.send(EMAIL, () -> {
          asked.incrementAndGet();
          return true;
        }));
    assertThat(result).isInstanceOf(SendResult.Rejected.class);
    assertThat(asked).hasValue(0);
  }

  @Test
  void a_4xx_for_the_recipient_is_deferred_with_its_code() {
    server.rcptReply = "450 4.2.1 mailbox busy, try later";
    assertThat(send()).isInstanceOfSatisfying(SendResult.Deferred.class, deferred -> {
      assertThat(deferred.code()).isEqualTo(450);
      assertThat(deferred.reply()).contains("mailbox busy");
    });
  }

  @Test
  void a_5xx_for_the_recipient_is_rejected_with_its_code() {
    server.rcptReply = "550 5.1.1 no such user";
    assertThat(send()).isInstanceOfSatisfying(SendResult.Rejected.class, rejected -> {
      assertThat(rejected.code()).isEqualTo(550);
      assertThat(rejected.reply()).contains("no such user");
    });
  }

  @Test
  void a_5xx_for_the_sender_is_rejected() {
    server.mailFromReply = "553 5.7.1 sender not allowed";
    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Rejected.class, r -> assertThat(r.code()).isEqualTo(553));
  }

  @Test
  void a_4xx_or_5xx_after_the_data_is_deferred_or_rejected_not_unknown() {
    server.endOfDataReply = "451 4.3.0 local problem";
    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Deferred.class, d -> assertThat(d.code()).isEqualTo(451));
    server.endOfDataReply = "554 5.7.1 looks like spam";
    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Rejected.class, r -> assertThat(r.code()).isEqualTo(554));
  }

  @Test
  void a_connection_dropped_before_data_is_deferred() {
    server.dropAtMailFrom = true;
    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Deferred.class, d -> assertThat(d.code()).isEqualTo(SmtpOutcomes.NO_REPLY));
  }

  @Test
  void a_connection_dropped_after_the_data_is_unknown() {
    server.dropAtEndOfData = true;
    assertThat(send()).isInstanceOf(SendResult.Unknown.class);
  }

  @Test
  void no_reply_to_the_end_of_data_within_the_read_timeout_is_unknown() {
    server.silentAtEndOfData = true;
    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Unknown.class,
            unknown -> assertThat(unknown.reason()).containsIgnoringCase("timed out"));
  }

  @Test
  void connections_are_reused_across_sends() {
    for (int i = 0; i < 5; i++) assertThat(send()).isInstanceOf(SendResult.Accepted.class);
    assertThat(server.accepted).hasValue(5);
    assertThat(server.connections).hasValue(1);
  }

  @Test
  void a_server_that_is_down_defers_and_is_a_problem_then_the_pool_recovers_when_it_is_back()
      throws IOException {
    assertThat(send()).isInstanceOf(SendResult.Accepted.class); // leaves a pooled connection behind
    int port = server.port();
    server.close(); // crash: the pooled connection is now dead

    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Deferred.class, d -> assertThat(d.code()).isEqualTo(SmtpOutcomes.NO_REPLY));
    assertThat(assertTimeoutPreemptively(BOUND, transport::problem))
        .hasValueSatisfying(p -> assertThat(p).contains("127.0.0.1"));

    server = ScriptedSmtpServer.startOn(port);
    assertThat(send()).isInstanceOf(SendResult.Accepted.class);
    assertThat(assertTimeoutPreemptively(BOUND, transport::problem)).isEmpty();
    assertThat(server.accepted).hasValue(1);
  }

  @Test
  void a_pooled_connection_the_server_dropped_is_replaced_without_losing_the_send()
      throws IOException {
    assertThat(send()).isInstanceOf(SendResult.Accepted.class);
    int port = server.port();
    server.close();
    server = ScriptedSmtpServer.startOn(port); // restarted between two sends

    assertThat(send()).isEqualTo(new SendResult.Accepted("m-1", "250 2.0.0 queued as 42"));
    assertThat(server.accepted).hasValue(1);
  }

  @Test
  void a_pooled_connection_the_server_closes_with_421_is_retried_once_on_a_fresh_one() {
    server.closingOnReuse = true;
    assertThat(send()).isInstanceOf(SendResult.Accepted.class); // leaves a pooled connection behind

    assertThat(send())
        .as("the 421 on the idle pooled connection is not the server refusing the message")
        .isEqualTo(new SendResult.Accepted("m-1", "250 2.0.0 queued as 42"));
    assertThat(server.accepted).hasValue(2);
    assertThat(server.connections).hasValue(2);
  }

  @Test
  void a_421_on_a_fresh_connection_is_deferred_without_a_retry() {
    server.mailFromReply = "421 4.3.2 scripted shutting down";

    assertThat(send())
        .isInstanceOfSatisfying(
            SendResult.Deferred.class, d -> assertThat(d.code()).isEqualTo(421));
    assertThat(server.connections).hasValue(1);
  }

  @Test
  void the_send_timeout_bounds_a_send_whose_every_reply_is_slow_but_within_the_read_timeout() {
    useTimeouts("connectTimeoutMs=1000&readTimeoutMs=1000&writeTimeoutMs=1000&sendTimeoutMs=1000");
    server.replyDelay = Duration.ofMillis(300); // greeting, EHLO, MAIL, RCPT, DATA...: about 2 s

    long started = System.nanoTime();
    SendResult result = send();
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(result).isInstanceOfSatisfying(SendResult.Deferred.class, deferred -> {
      assertThat(deferred.code()).isEqualTo(SmtpOutcomes.NO_REPLY);
      assertThat(deferred.reply()).contains("send timeout");
    });
    assertThat(took).isBetween(Duration.ofMillis(900), Duration.ofMillis(1900));
    assertThat(server.accepted).hasValue(0);
  }

  @Test
  void a_send_timeout_after_the_message_data_is_unknown_long_before_the_read_timeout() {
    useTimeouts("connectTimeoutMs=1000&readTimeoutMs=15000&writeTimeoutMs=1000&sendTimeoutMs=1000");
    server.silentAtEndOfData = true;

    long started = System.nanoTime();
    SendResult result = send();
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(result)
        .isInstanceOfSatisfying(
            SendResult.Unknown.class,
            unknown -> assertThat(unknown.reason()).contains("send timeout"));
    assertThat(took).isLessThan(Duration.ofSeconds(3));
  }

  @Test
  void after_a_send_timeout_the_next_send_goes_through() {
    useTimeouts("connectTimeoutMs=1000&readTimeoutMs=1000&writeTimeoutMs=1000&sendTimeoutMs=1000");
    server.replyDelay = Duration.ofMillis(300);
    assertThat(send()).isInstanceOf(SendResult.Deferred.class);

    server.replyDelay = Duration.ZERO;
    assertThat(send()).isEqualTo(new SendResult.Accepted("m-1", "250 2.0.0 queued as 42"));
  }

  @Test
  void closed_transport_defers() {
    transport.close();
    assertThat(send()).isInstanceOf(SendResult.Deferred.class);
  }
}
