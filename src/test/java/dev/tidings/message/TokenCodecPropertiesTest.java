package dev.tidings.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.message.TokenCodec.Reason;
import dev.tidings.message.TokenCodec.Verdict;
import java.time.Instant;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class TokenCodecPropertiesTest {
  private static final String URL_SAFE =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private final TokenCodec codec = TokenCodec.of(new Secret("current-secret-0123456789"));

  @Provide
  Arbitrary<MessageToken> tokens() {
    Arbitrary<String> subscriberIds = Arbitraries.oneOf(
        Arbitraries.longs().between(0, 999_999_999_999L).map(String::valueOf),
        Arbitraries.strings()
            .withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-")
            .ofMinLength(1)
            .ofMaxLength(64));
    Arbitrary<Instant> issued = Arbitraries.longs()
        .between(
            TokenCodec.EPOCH.getEpochSecond(),
            Instant.parse("2100-01-01T00:00:00Z").getEpochSecond())
        .map(Instant::ofEpochSecond);
    return Combinators.combine(
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            subscriberIds,
            issued,
            Arbitraries.integers().between(0, MessageToken.MAX_SLOTS))
        .as((campaign, run, subscriber, at, slots) ->
            new MessageToken(new MessageId(campaign, run, subscriber), at, slots));
  }

  @Property
  void a_token_reads_back_as_what_was_written(@ForAll("tokens") MessageToken token) {
    String text = codec.encode(token);

    assertThat(codec.decode(text)).isEqualTo(new Verdict.Valid(token));
    assertThat(text).matches("[A-Za-z0-9_-]+").hasSizeLessThanOrEqualTo(200);
  }

  @Property
  void any_single_changed_character_is_refused(
      @ForAll("tokens") MessageToken token,
      @ForAll @IntRange(min = 0, max = 10_000) int where,
      @ForAll @IntRange(min = 1, max = 63) int shift) {
    String text = codec.encode(token);
    int at = where % text.length();
    char replaced =
        URL_SAFE.charAt((URL_SAFE.indexOf(text.charAt(at)) + shift) % URL_SAFE.length());
    String changed = text.substring(0, at) + replaced + text.substring(at + 1);

    assertThat(codec.decode(changed)).isInstanceOf(Verdict.Refused.class);
  }

  @Property
  void a_token_signed_with_another_secret_is_refused(@ForAll("tokens") MessageToken token) {
    var elsewhere = TokenCodec.of(new Secret("another-installation-secret"));

    Verdict verdict = codec.decode(elsewhere.encode(token));

    assertThat(verdict)
        .isIn(new Verdict.Refused(Reason.UNKNOWN_KEY), new Verdict.Refused(Reason.FORGED));
  }

  @Property
  void after_a_rotation_old_tokens_still_read_and_new_ones_use_the_new_key(
      @ForAll("tokens") MessageToken token) {
    var rotated = TokenCodec.of(new Secret("next-secret-abcdefghijkl, current-secret-0123456789"));
    var newOnly = TokenCodec.of(new Secret("next-secret-abcdefghijkl"));

    assertThat(rotated.decode(codec.encode(token))).isEqualTo(new Verdict.Valid(token));
    assertThat(newOnly.decode(rotated.encode(token))).isEqualTo(new Verdict.Valid(token));
  }

  @Property
  void garbage_is_refused_without_an_exception(@ForAll String anything) {
    assertThat(codec.decode(anything)).isInstanceOf(Verdict.Refused.class);
  }

  @Property
  void message_ids_read_back_from_their_text(
      @ForAll @LongRange(min = 0) long campaign,
      @ForAll @LongRange(min = 0) long run,
      @ForAll("tokens") MessageToken sample) {
    var id = new MessageId(campaign, run, sample.message().subscriberId());

    assertThat(MessageId.parse(id.text())).contains(id);
    assertThat(id.text()).matches("[A-Za-z0-9_-]+");
  }
}
