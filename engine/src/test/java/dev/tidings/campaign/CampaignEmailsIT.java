package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.send.Composer.Composed;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendReceipt;
import dev.tidings.config.Secret;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import dev.tidings.optimize.stats.Proportion;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Composing at send time, previews and unsubscribes, on the real PostgreSQL. */
class CampaignEmailsIT {
  private final InstantSource clock = InstantSource.system();
  private final TokenCodec tokens = TokenCodec.of(new Secret("emails-it-secret-0123456789"));
  private Database database;
  private CampaignService campaigns;
  private CampaignEmails emails;
  private SubscriberService subscribers;
  private SuppressionService suppressions;
  private Unsubscribes unsubscribes;
  private final RecordingSends sends = new RecordingSends();

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    var jdbi = database.jdbi();
    subscribers = new SubscriberService(jdbi, clock);
    suppressions = new SuppressionService(jdbi, clock);
    campaigns = new CampaignService(
        jdbi, sends, new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry());
    emails = new CampaignEmails(
        jdbi,
        subscribers,
        suppressions,
        new CampaignRenderer(URI.create("https://mail.shop.example"), tokens, clock),
        clock,
        new SimpleMeterRegistry());
    unsubscribes = new Unsubscribes(tokens, subscribers, suppressions, sends, clock);
    subscribers.put(Fixtures.subscriber("ok", "ok@example.com", "Ola K", "Wien"));
    subscribers.put(Fixtures.subscriber("gone-soon", "gone@example.com", "Gone", "Wien"));
    subscribers.put(Fixtures.subscriber("bounced", "Bounced@example.com", "B", "Wien"));
    subscribers.put(new Subscriber(
        "pending",
        "pending@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.PENDING));
    suppressions.suppress(
        new Suppression("bounced@EXAMPLE.com", SuppressionReason.BOUNCE, clock.instant()));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void composing_skips_whoever_must_not_be_mailed_and_writes_the_rest() {
    Campaign campaign = campaigns.create(Fixtures.definition());
    subscribers.delete("gone-soon");
    var job = new SendJob(campaign.id(), 5, 4, 100);
    List<Composed> out = emails.composeAll(
        job,
        List.of(
            new MessageId(campaign.id(), 5, "ok"),
            new MessageId(campaign.id(), 5, "gone-soon"),
            new MessageId(campaign.id(), 5, "bounced"),
            new MessageId(campaign.id(), 5, "pending")));
    assertThat(out.get(0)).isInstanceOfSatisfying(Composed.Email.class, email -> {
      assertThat(email.email().messageId()).isEqualTo(new MessageId(campaign.id(), 5, "ok").text());
      assertThat(email.email().to().email()).isEqualTo("ok@example.com");
    });
    assertThat(out.subList(1, 4))
        .containsExactly(
            new Composed.Skip("subscriber gone-soon no longer exists"),
            new Composed.Skip("the address of subscriber bounced is suppressed"),
            new Composed.Skip("subscriber pending has consent pending"));
    assertThat(emails.compose(job, new MessageId(campaign.id(), 5, "ok")))
        .isInstanceOf(Composed.Email.class);
    assertThat(emails.compose(new SendJob(999_999, 5, 4, 100), new MessageId(999_999, 5, "ok")))
        .isEqualTo(new Composed.Skip("campaign 999999 no longer exists"));
  }

  @Test
  void an_email_of_an_arm_variant_carries_the_arms_algorithms_in_its_token() {
    var sent = new ConcurrentHashMap<String, Integer>();
    var ledger = new ExperimentLedger() {
      @Override
      public void sent(MessageId message, int variant) {
        sent.put(message.subscriberId(), variant);
      }

      @Override
      public List<Proportion> results(long campaignId, Experiment experiment) {
        return ExperimentLedger.NONE.results(campaignId, experiment);
      }
    };
    var armed = new CampaignEmails(
        database.jdbi(),
        subscribers,
        suppressions,
        new CampaignRenderer(URI.create("https://mail.shop.example"), tokens, clock),
        DigestSource.NONE,
        ledger,
        clock,
        new SimpleMeterRegistry());
    var json = Fixtures.json();
    json.set("experiment", Json.MAPPER.readTree("""
        {"allocation": "ab", "metric": "human_click", "testShare": 1,
         "variants": [{"name": "blend"}, {"name": "popular", "algorithms": ["popularity"]}]}"""));
    Campaign campaign = campaigns.create(CampaignJson.fromJson(json));
    var job = new SendJob(campaign.id(), 7, 4, 100);
    List<MessageId> messages = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      subscribers.put(Fixtures.subscriber("r" + i, "r" + i + "@example.com", "R " + i, "Wien"));
      messages.add(new MessageId(campaign.id(), 7, "r" + i));
    }

    List<Composed> out = armed.composeAll(job, messages);
    int popularArm = Algorithm.armOf(EnumSet.of(Algorithm.POPULARITY));
    for (Composed composed : out) {
      var written = (Composed.Email) composed;
      written.afterSent().run(); // the ledger learns each email's variant once it is sent
      var email = written.email();
      String token =
          email.headers().get("List-Unsubscribe").replaceAll("^<[^>]*/u/([^>]+)>.*$", "$1");
      var decoded = (TokenCodec.Verdict.Valid) tokens.decode(token);
      int variant = sent.get(decoded.token().message().subscriberId());
      assertThat(decoded.token().arm())
          .as("variant %d", variant)
          .isEqualTo(variant == 1 ? popularArm : 0);
    }
    assertThat(sent).hasSize(40);
    assertThat(sent.values()).contains(0, 1);
  }

  @Test
  void a_preview_renders_real_tokens_for_one_subscriber_and_says_whether_it_would_be_sent() {
    Campaign campaign = campaigns.create(Fixtures.definition());
    var preview = emails.preview(campaign, "ok").orElseThrow();
    assertThat(preview.skipped()).isEmpty();
    var email = preview.email().orElseThrow();
    String token =
        email.headers().get("List-Unsubscribe").replaceAll("^<[^>]*/u/([^>]+)>.*$", "$1");
    assertThat(tokens.decode(token))
        .isInstanceOfSatisfying(
            TokenCodec.Verdict.Valid.class,
            valid -> assertThat(valid.token().message())
                .isEqualTo(new MessageId(campaign.id(), 0, "ok")));

    assertThat(emails.preview(campaign, "bounced").orElseThrow().skipped())
        .contains("the address of subscriber bounced is suppressed");
    assertThat(emails.preview(campaign, "nobody")).isEmpty();
  }

  @Test
  void looking_a_token_up_changes_nothing_and_unsubscribing_suppresses_the_address() {
    Campaign campaign = campaigns.create(Fixtures.definition());
    String token =
        tokens.encode(new MessageToken(new MessageId(campaign.id(), 3, "ok"), Instant.now(), 6));
    assertThat(unsubscribes.whom(token).map(Subscriber::id)).contains("ok");
    assertThat(suppressions.isSuppressed("ok@example.com")).isFalse();

    var suppression = unsubscribes.unsubscribe(token).orElseThrow();
    assertThat(suppression.reason()).isEqualTo(SuppressionReason.UNSUBSCRIBE);
    assertThat(suppressions.isSuppressed("OK@example.com")).isTrue();
    assertThat(sends.reported).singleElement().satisfies(receipt -> {
      assertThat(receipt.messageId()).isEqualTo(new MessageId(campaign.id(), 3, "ok").text());
      assertThat(receipt.status()).isEqualTo(SendReceipt.Status.UNSUBSCRIBED);
    });
    assertThat(emails.compose(
            new SendJob(campaign.id(), 3, 4, 100), new MessageId(campaign.id(), 3, "ok")))
        .isEqualTo(new Composed.Skip("the address of subscriber ok is suppressed"));

    String forged = token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "BA" : "AA");
    assertThat(unsubscribes.unsubscribe(forged)).isEmpty();
    assertThat(unsubscribes.unsubscribe("not-a-token")).isEmpty();
    assertThat(sends.reported).as("a bad token reports nothing").hasSize(1);
  }
}
