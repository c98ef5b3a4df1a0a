package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.tidings.Json;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.DigestSource;
import dev.tidings.campaign.ExperimentLedger;
import dev.tidings.config.Secret;
import dev.tidings.mail.smtp.SmtpMailTransport;
import dev.tidings.message.TokenCodec;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.Address;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Subscribers' addresses are parsed again at send time, through the whole pipeline on the real
 * PostgreSQL to a real SMTP server (GreenMail): rows written straight into the table, or kept from
 * before the address rule, never reach a second recipient or a suppressed one.
 */
class SendTimeAddressIT {
  @RegisterExtension
  static final GreenMailExtension smtp = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

  private final InstantSource clock = InstantSource.system();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private SendHarness harness;
  private SmtpMailTransport mail;
  private SubscriberService subscribers;
  private SuppressionService suppressions;
  private CampaignEmails emails;
  private long campaignId;

  @BeforeEach
  void open() {
    harness = new SendHarness(TestDatabases.real(), SendHarness.fast());
    var jdbi = harness.database.jdbi();
    subscribers = new SubscriberService(jdbi, clock);
    suppressions = new SuppressionService(jdbi, clock);
    emails = new CampaignEmails(
        jdbi,
        subscribers,
        suppressions,
        new CampaignRenderer(
            URI.create("https://mail.shop.example"),
            TokenCodec.of(new Secret("address-it-secret-0123456789")),
            clock),
        DigestSource.NONE,
        ExperimentLedger.NONE,
        clock,
        metrics);
    var campaigns = new CampaignService(
        jdbi, harness.sends(), new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry());
    campaignId =
        campaigns.create(CampaignJson.fromJson(Json.MAPPER.readTree("""
            {"name":"Addresses","from":{"email":"news@shop.example","name":"Shop"},
             "subject":"Hello {{subscriber.name}}","html":"<p>Hi</p>","text":"Hi"}"""))).id();
    mail = SmtpMailTransport.fromUrl(
        URI.create("smtp://127.0.0.1:" + smtp.getSmtp().getPort()), clock);
  }

  @AfterEach
  void close() {
    mail.close();
    harness.close();
  }

  /** Rows as an older version, or a script writing to the table, left them: no rule applied. */
  private void writtenStraightIntoTheTable(String id, String email, String name) {
    harness.database.jdbi().useHandle(handle -> handle.execute("""
        INSERT INTO subscribers (id, email, name, created_at, updated_at)
        VALUES (?, ?, ?, now(), now())""", id, email, name));
  }

  private SendProgress send(long runId, List<String> recipients) throws InterruptedException {
    var job = new SendJob(campaignId, runId, 3, 1_000);
    harness.sends().start(job, recipients.iterator());
    harness.startWorkers(emails, mail);
    SendHarness.await(
        Duration.ofSeconds(60), () -> harness.progress(job).state().finished());
    return harness.progress(job);
  }

  private static List<String> recipients(MimeMessage[] received) throws Exception {
    var out = new ArrayList<String>();
    for (MimeMessage message : received) {
      Address[] to = message.getAllRecipients();
      out.addAll(Arrays.stream(to).map(Object::toString).toList());
    }
    return out;
  }

  @Test
  void a_stored_address_that_hides_a_second_mailbox_is_skipped_with_a_reason_and_counted()
      throws Exception {
    writtenStraightIntoTheTable("good", "good@example.com", "Good");
    writtenStraightIntoTheTable("s-angle", "a>,<victim@evil.example", "Angle");
    writtenStraightIntoTheTable("s-list", "b@shop.example,victim@evil.example", "List");

    SendProgress done = send(1, List.of("good", "s-angle", "s-list"));

    assertThat(done.sent()).isEqualTo(1);
    assertThat(done.skipped()).isEqualTo(2);
    smtp.waitForIncomingEmail(5_000, 1);
    MimeMessage[] received = smtp.getReceivedMessages();
    assertThat(received).hasSize(1);
    assertThat(received[0].getAllRecipients())
        .extracting(Object::toString)
        .containsExactly("Good <good@example.com>");
    assertThat(smtp.getReceivedMessagesForDomain("evil.example")).isEmpty();
    assertThat(smtp.getReceivedMessagesForDomain("victim@evil.example")).isEmpty();

    var ledger = new Ledger(harness.database.jdbi());
    assertThat(ledger.recipientState(campaignId, 1, "s-angle")).contains("skipped");
    String reason = harness
        .database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery(
                "SELECT reason FROM send_recipient WHERE campaign_id = :c AND subscriber_id = 's-angle'")
            .bind("c", campaignId)
            .mapTo(String.class)
            .one());
    assertThat(reason).startsWith("the address of subscriber s-angle cannot be mailed");
    assertThat(metrics
            .get(CampaignEmails.REFUSED_ADDRESSES)
            .tag("reason", "not_one_address")
            .counter()
            .count())
        .isEqualTo(2.0);
  }

  @Test
  void a_suppressed_address_is_not_mailed_whatever_the_case_of_its_domain_or_its_idn_form()
      throws Exception {
    writtenStraightIntoTheTable("good", "good@example.com", "Good");
    writtenStraightIntoTheTable("shout", "Victim@EVIL.example", "Shout");
    writtenStraightIntoTheTable("idn", "kunde@BÜCHER.example", "Kunde");
    suppressions.suppress(
        new Suppression("Victim@evil.example", SuppressionReason.BOUNCE, clock.instant()));
    suppressions.suppress(new Suppression(
        "kunde@xn--bcher-kva.example", SuppressionReason.COMPLAINT, clock.instant()));

    SendProgress done = send(2, List.of("good", "shout", "idn"));

    assertThat(done.sent()).isEqualTo(1);
    assertThat(done.skipped()).isEqualTo(2);
    smtp.waitForIncomingEmail(5_000, 1);
    assertThat(recipients(smtp.getReceivedMessages())).containsExactly("Good <good@example.com>");
    assertThat(suppressions.isSuppressed("KUNDE@bücher.example")).isTrue();
  }

  @Test
  void an_idn_address_goes_out_in_punycode_to_exactly_that_one_recipient() throws Exception {
    writtenStraightIntoTheTable(
        "idn", "kunde@Bücher.example", "Kunde, \"Bücherwurm\" <x@y.example>");

    SendProgress done = send(3, List.of("idn"));

    assertThat(done.sent()).isEqualTo(1);
    smtp.waitForIncomingEmail(5_000, 1);
    MimeMessage[] received = smtp.getReceivedMessages();
    assertThat(received).hasSize(1);
    var to = (InternetAddress) received[0].getAllRecipients()[0];
    assertThat(received[0].getAllRecipients()).hasSize(1);
    assertThat(to.getAddress()).isEqualTo("kunde@xn--bcher-kva.example");
    assertThat(to.getPersonal()).isEqualTo("Kunde, \"Bücherwurm\" <x@y.example>");
    assertThat(smtp.getReceivedMessagesForDomain("y.example")).isEmpty();
    assertThat(Optional.ofNullable(received[0].getHeader("To")).orElseThrow()).hasSize(1);
  }
}
