package dev.tidings.audience;

import static dev.tidings.audience.SubscriberContract.NOW;
import static dev.tidings.audience.SubscriberContract.subscriber;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.storage.Database;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What every database behind {@link FollowService} must do. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class FollowContract {
  private Database database;
  private SubscriberService subscribers;
  private FollowService follows;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    subscribers = new SubscriberService(database.jdbi(), InstantSource.fixed(NOW));
    follows = new FollowService(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE subscribers, follows"));
  }

  @Test
  void follows_are_listed_per_subscriber_and_followers_per_target_page_by_page() {
    var acme = new FollowTarget(TargetType.BRAND, "acme");
    var gallery = new FollowTarget(TargetType.GALLERY, "tate");
    for (int i = 0; i < 5; i++) {
      subscribers.put(subscriber("s" + i, "u" + i + "@example.com"));
      follows.follow(new Follow("s" + i, acme, NOW));
    }
    follows.follow(new Follow("s0", gallery, NOW.plusSeconds(5)));
    assertThat(follows.followsOf("s0"))
        .containsExactly(
            new Follow("s0", acme, NOW), new Follow("s0", gallery, NOW.plusSeconds(5)));
    assertThat(follows.followedOf("s0", Set.of(TargetType.BRAND, TargetType.CATEGORY)))
        .containsExactly(acme);
    assertThat(follows.followedOf("s0", Set.of(TargetType.GALLERY))).containsExactly(gallery);
    assertThat(follows.followedOf("s9", Set.of(TargetType.BRAND))).isEmpty();
    List<String> followers = new ArrayList<>();
    Optional<String> after = Optional.empty();
    for (int page = 0; page < 3; page++) {
      var got = follows.followers(acme, after, 2);
      got.forEach(f -> followers.add(f.subscriberId()));
      if (got.isEmpty()) break;
      after = Optional.of(got.getLast().subscriberId());
    }
    assertThat(followers).containsExactly("s0", "s1", "s2", "s3", "s4");
    assertThat(follows.unfollow("s0", acme)).isTrue();
    assertThat(follows.unfollow("s0", acme)).isFalse();
    assertThat(follows.followsOf("s0")).extracting(Follow::target).containsExactly(gallery);
  }

  @Test
  void following_again_redates_and_a_follow_of_an_unknown_subscriber_is_refused() {
    subscribers.put(subscriber("s1", "a@example.com"));
    var acme = new FollowTarget(TargetType.STORE, "acme");
    follows.follow(new Follow("s1", acme, NOW));
    follows.follow(new Follow("s1", acme, NOW.plusSeconds(60)));
    assertThat(follows.followsOf("s1"))
        .containsExactly(new Follow("s1", acme, NOW.plusSeconds(60)));
    assertThatThrownBy(() -> follows.follow(new Follow("ghost", acme, NOW)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("subscriber ghost does not exist");
    assertThat(follows.followsOf("ghost")).isEmpty();
  }

  @Test
  void a_page_limit_out_of_range_is_invalid_input() {
    assertThatThrownBy(() ->
            follows.followers(new FollowTarget(TargetType.BRAND, "acme"), Optional.empty(), 0))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("limit must be 1..1000, got 0");
  }
}
