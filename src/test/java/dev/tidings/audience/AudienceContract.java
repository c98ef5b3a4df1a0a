package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.storage.Database;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What every database behind {@link AudienceService} must do. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class AudienceContract {
  private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
  private Database database;
  private AudienceService audience;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    audience = new AudienceService(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database
        .jdbi()
        .useHandle(handle -> handle.execute("TRUNCATE subscribers, follows, suppressions"));
  }

  static Subscriber subscriber(String id, String email) {
    return new Subscriber(
        id,
        email,
        Optional.of("Ada " + id),
        Locale.forLanguageTag("de-DE"),
        ZoneId.of("Europe/Berlin"),
        Optional.of(new Location(
            Optional.of(new GeoPoint(52.52, 13.405)), Optional.of("Berlin"), Optional.of("DE"))),
        Consent.SUBSCRIBED);
  }

  @Test
  void a_subscriber_put_is_read_back_by_id_and_by_email_in_any_case() {
    Subscriber ada = subscriber("s1", "Ada@Example.com");
    audience.putSubscriber(ada);
    assertThat(audience.getSubscriber("s1")).contains(ada);
    assertThat(audience.findByEmail("ada@example.COM")).contains(ada);
  }

  @Test
  void a_subscriber_with_only_the_required_fields_reads_back_with_defaults() {
    var bare = new Subscriber(
        "s2",
        "b@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneOffset.UTC,
        Optional.empty(),
        Consent.PENDING);
    audience.putSubscriber(bare);
    assertThat(audience.getSubscriber("s2")).contains(bare);
  }

  @Test
  void put_updates_and_an_email_of_another_subscriber_is_refused() {
    audience.putSubscriber(subscriber("s1", "a@example.com"));
    audience.putSubscriber(subscriber("s1", "new@example.com"));
    assertThat(audience.getSubscriber("s1").orElseThrow().email()).isEqualTo("new@example.com");
    assertThatThrownBy(() -> audience.putSubscriber(subscriber("s2", "NEW@example.com")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("email NEW@example.com already belongs to subscriber s1");
    assertThat(audience.countSubscribers()).isEqualTo(1);
  }

  @Test
  void subscribers_page_in_id_order_and_delete_takes_their_follows() {
    for (int i = 0; i < 7; i++)
      audience.putSubscriber(subscriber("s" + i, "u" + i + "@example.com"));
    assertThat(audience.listSubscribers(Optional.empty(), 3))
        .extracting(Subscriber::id)
        .containsExactly("s0", "s1", "s2");
    assertThat(audience.listSubscribers(Optional.of("s2"), 3))
        .extracting(Subscriber::id)
        .containsExactly("s3", "s4", "s5");
    assertThat(audience.listSubscribers(Optional.of("s5"), 3))
        .extracting(Subscriber::id)
        .containsExactly("s6");
    audience.follow(new Follow("s1", new FollowTarget(TargetType.BRAND, "acme"), NOW));
    assertThat(audience.deleteSubscriber("s1")).isTrue();
    assertThat(audience.deleteSubscriber("s1")).isFalse();
    assertThat(audience.followers(new FollowTarget(TargetType.BRAND, "acme"), Optional.empty(), 10))
        .isEmpty();
  }

  @Test
  void follows_are_listed_per_subscriber_and_followers_per_target_page_by_page() {
    var acme = new FollowTarget(TargetType.BRAND, "acme");
    var gallery = new FollowTarget(TargetType.GALLERY, "tate");
    for (int i = 0; i < 5; i++) {
      audience.putSubscriber(subscriber("s" + i, "u" + i + "@example.com"));
      audience.follow(new Follow("s" + i, acme, NOW));
    }
    audience.follow(new Follow("s0", gallery, NOW.plusSeconds(5)));
    assertThat(audience.followsOf("s0"))
        .containsExactly(
            new Follow("s0", acme, NOW), new Follow("s0", gallery, NOW.plusSeconds(5)));
    List<String> followers = new ArrayList<>();
    Optional<String> after = Optional.empty();
    for (int page = 0; page < 3; page++) {
      var got = audience.followers(acme, after, 2);
      got.forEach(f -> followers.add(f.subscriberId()));
      if (got.isEmpty()) break;
      after = Optional.of(got.getLast().subscriberId());
    }
    assertThat(followers).containsExactly("s0", "s1", "s2", "s3", "s4");
    assertThat(audience.unfollow("s0", acme)).isTrue();
    assertThat(audience.unfollow("s0", acme)).isFalse();
    assertThat(audience.followsOf("s0")).extracting(Follow::target).containsExactly(gallery);
  }

  @Test
  void following_again_redates_and_a_follow_of_an_unknown_subscriber_is_refused() {
    audience.putSubscriber(subscriber("s1", "a@example.com"));
    var acme = new FollowTarget(TargetType.STORE, "acme");
    audience.follow(new Follow("s1", acme, NOW));
    audience.follow(new Follow("s1", acme, NOW.plusSeconds(60)));
    assertThat(audience.followsOf("s1"))
        .containsExactly(new Follow("s1", acme, NOW.plusSeconds(60)));
    assertThatThrownBy(() -> audience.follow(new Follow("ghost", acme, NOW)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("subscriber ghost does not exist");
  }

  @Test
  void suppressions_match_any_case_keep_the_first_reason_and_page() {
    assertThat(audience.isSuppressed("x@example.com")).isFalse();
    var first = audience.suppress(new Suppression("X@Example.com", SuppressionReason.BOUNCE, NOW));
    var again = audience.suppress(
        new Suppression("x@example.com", SuppressionReason.COMPLAINT, NOW.plusSeconds(1)));
    assertThat(again).isEqualTo(first);
    assertThat(audience.isSuppressed("x@EXAMPLE.com")).isTrue();
    audience.suppress(new Suppression("a@example.com", SuppressionReason.MANUAL, NOW));
    audience.suppress(new Suppression("m@example.com", SuppressionReason.UNSUBSCRIBE, NOW));
    assertThat(audience.listSuppressions(Optional.empty(), 2))
        .extracting(Suppression::email)
        .containsExactly("a@example.com", "m@example.com");
    assertThat(audience.listSuppressions(Optional.of("m@example.com"), 2))
        .extracting(Suppression::email)
        .containsExactly("X@Example.com");
    assertThat(audience.unsuppress("x@example.com")).isTrue();
    assertThat(audience.isSuppressed("x@example.com")).isFalse();
  }

  @Test
  void invalid_subscribers_say_what_is_wrong() {
    assertThatThrownBy(() -> new Subscriber(
            "s1",
            "no at sign",
            Optional.of("two\nlines"),
            Locale.ENGLISH,
            ZoneOffset.UTC,
            Optional.empty(),
            Consent.SUBSCRIBED))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactly(
                    "email must be an address with one @, no spaces, up to 254 characters, got 'no at sign'",
                    "name must not contain line breaks"));
  }
}
