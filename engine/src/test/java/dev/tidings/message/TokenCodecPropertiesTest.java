package dev.tidings.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.message.TokenCodec.Reason;
import dev.tidings.message.TokenCodec.Verdict;
import java.time.Instant;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Properties of tokens, each checked on a thousand generated cases from a fixed seed, so that a
 * failure names a case that reproduces.
 */
class TokenCodecPropertiesTest {
  private static final int CASES = 1_000;
  private static final String URL_SAFE =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final String ID_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-";
  private static final long LAST_SECOND = Instant.parse("2100-01-01T00:00:00Z").getEpochSecond();
  private final TokenCodec codec = TokenCodec.of(new Secret("current-secret-0123456789"));

  private static void forEachToken(long seed, Consumer<MessageToken> property) {
    var random = new Random(seed);
    for (int i = 0; i < CASES; i++) property.accept(token(random));
  }

  private static MessageToken token(Random random) {
    String subscriber;
    if (random.nextBoolean()) {
      subscriber = Long.toString(random.nextLong(0, 1_000_000_000_000L));
    } else {
      var id = new StringBuilder();
      int length = 1 + random.nextInt(64);
      for (int c = 0; c < length; c++)
        id.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
      subscriber = id.toString();
    }
    long campaign = random.nextInt(4) == 0 ? Long.MAX_VALUE : random.nextLong(0, Long.MAX_VALUE);
    long run = random.nextInt(4) == 0 ? 0 : random.nextLong(0, Long.MAX_VALUE);
    Instant issued =
        Instant.ofEpochSecond(random.nextLong(TokenCodec.EPOCH.getEpochSecond(), LAST_SECOND));
    return new MessageToken(
        new MessageId(campaign, run, subscriber),
        issued,
        random.nextInt(MessageToken.MAX_SLOTS + 1));
  }

  @Test
  void a_token_reads_back_as_what_was_written() {
    forEachToken(1, token -> {
      String text = codec.encode(token);

      assertThat(codec.decode(text)).as(text).isEqualTo(new Verdict.Valid(token));
      assertThat(text).matches("[A-Za-z0-9_-]+").hasSizeLessThanOrEqualTo(200);
    });
  }

  @Test
  void any_single_changed_character_is_refused() {
    var random = new Random(2);
    forEachToken(3, token -> {
      String text = codec.encode(token);
      int at = random.nextInt(text.length());
      int shift = 1 + random.nextInt(URL_SAFE.length() - 1);
      char replaced =
          URL_SAFE.charAt((URL_SAFE.indexOf(text.charAt(at)) + shift) % URL_SAFE.length());
      String changed = text.substring(0, at) + replaced + text.substring(at + 1);

      assertThat(codec.decode(changed)).as(changed).isInstanceOf(Verdict.Refused.class);
    });
  }

  @Test
  void every_character_of_one_token_matters() {
    String text = codec.encode(token(new Random(4)));
    for (int at = 0; at < text.length(); at++) {
      for (char replaced : URL_SAFE.toCharArray()) {
        if (replaced == text.charAt(at)) continue;
        String changed = text.substring(0, at) + replaced + text.substring(at + 1);
        assertThat(codec.decode(changed)).as(changed).isInstanceOf(Verdict.Refused.class);
      }
    }
  }

  @Test
  void a_token_signed_with_another_secret_is_refused() {
    var elsewhere = TokenCodec.of(new Secret("another-installation-secret"));
    forEachToken(
        5,
        token -> assertThat(codec.decode(elsewhere.encode(token)))
            .isIn(new Verdict.Refused(Reason.UNKNOWN_KEY), new Verdict.Refused(Reason.FORGED)));
  }

  @Test
  void after_a_rotation_old_tokens_still_read_and_new_ones_use_the_new_key() {
    var rotated = TokenCodec.of(new Secret("next-secret-abcdefghijkl, current-secret-0123456789"));
    var newOnly = TokenCodec.of(new Secret("next-secret-abcdefghijkl"));
    forEachToken(6, token -> {
      assertThat(rotated.decode(codec.encode(token))).isEqualTo(new Verdict.Valid(token));
      assertThat(newOnly.decode(rotated.encode(token))).isEqualTo(new Verdict.Valid(token));
    });
  }

  @Test
  void garbage_is_refused_without_an_exception() {
    var random = new Random(7);
    for (int i = 0; i < CASES; i++) {
      var text = new StringBuilder();
      int length = random.nextInt(120);
      for (int c = 0; c < length; c++) text.append((char) random.nextInt(32, 0x2FF));
      assertThat(codec.decode(text.toString())).isInstanceOf(Verdict.Refused.class);
    }
  }

  @Test
  void message_ids_read_back_from_their_text() {
    forEachToken(8, token -> {
      MessageId id = token.message();
      assertThat(MessageId.parse(id.text())).contains(id);
      assertThat(id.text()).matches("[A-Za-z0-9_-]+");
    });
  }
}
