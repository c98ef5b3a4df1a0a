package dev.tidings.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.config.Secret;
import dev.tidings.message.TokenCodec.Reason;
import dev.tidings.message.TokenCodec.Verdict;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokenCodecTest {
  private final TokenCodec codec = TokenCodec.of(new Secret("current-secret-0123456789"));
  private final Instant now = Instant.parse("2026-11-23T17:31:00Z");

  @Test
  void a_usual_email_token_is_well_under_sixty_characters() {
    var numeric = new MessageToken(new MessageId(1_234, 56_789, "1234567"), now, 5);
    var textual = new MessageToken(new MessageId(1_234, 56_789, "cust-2026-000123-ab"), now, 5);

    assertThat(codec.encode(numeric)).hasSizeLessThanOrEqualTo(40);
    assertThat(codec.encode(textual)).hasSizeLessThanOrEqualTo(60);
  }

  @Test
  void the_issue_time_is_kept_to_the_minute() {
    var token =
        new MessageToken(new MessageId(1, 2, "s-1"), Instant.parse("2026-11-23T17:31:42.5Z"), 5);

    assertThat(codec.decode(codec.encode(token)))
        .isEqualTo(new Verdict.Valid(new MessageToken(
            new MessageId(1, 2, "s-1"), Instant.parse("2026-11-23T17:31:00Z"), 5)));
  }

  @Test
  void an_experiment_arm_rides_in_a_version_2_token_and_tokens_without_one_stay_as_they_were() {
    var plain = new MessageToken(new MessageId(1, 2, "s-1"), now, 5);
    var armed = new MessageToken(new MessageId(1, 2, "s-1"), now, 5, 0b1_0001);

    String plainText = codec.encode(plain);
    String armedText = codec.encode(armed);
    assertThat(codec.decode(plainText)).isEqualTo(new Verdict.Valid(plain));
    assertThat(codec.decode(armedText)).isEqualTo(new Verdict.Valid(armed));
    assertThat(Base64.getUrlDecoder().decode(plainText)[0]).isEqualTo((byte) 1);
    assertThat(Base64.getUrlDecoder().decode(armedText)[0]).isEqualTo((byte) 2);
    assertThat(armedText.length()).isLessThanOrEqualTo(plainText.length() + 4);
    assertThatThrownBy(() -> new MessageToken(new MessageId(1, 2, "s"), now, 5, 0x1_0000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("arm must be within 0..65535");
  }

  @Test
  void the_subscribers_locale_rides_in_a_version_3_token_with_or_without_an_arm() {
    var plain = new MessageToken(new MessageId(1, 2, "s-1"), now, 5);
    var german = new MessageToken(
        new MessageId(1, 2, "s-1"), now, 5, 0, Optional.of(Locale.forLanguageTag("de-AT")));
    var armed = new MessageToken(
        new MessageId(1, 2, "s-1"), now, 5, 7, Optional.of(Locale.forLanguageTag("sr-Latn-RS")));

    for (MessageToken token : List.of(german, armed)) {
      String text = codec.encode(token);
      assertThat(codec.decode(text)).isEqualTo(new Verdict.Valid(token));
      assertThat(Base64.getUrlDecoder().decode(text)[0]).isEqualTo((byte) 3);
    }
    assertThat(codec.encode(german).length())
        .isLessThanOrEqualTo(codec.encode(plain).length() + 10);
    assertThat(((Verdict.Valid) codec.decode(codec.encode(armed))).token().locale())
        .contains(Locale.forLanguageTag("sr-Latn-RS"));
    // no tag to carry: the token stays the version it was
    var root = new MessageToken(new MessageId(1, 2, "s-1"), now, 5, 0, Optional.of(Locale.ROOT));
    assertThat(codec.encode(root)).isEqualTo(codec.encode(plain));
  }

  @Test
  void a_zero_padded_id_keeps_its_zeros() {
    var token = new MessageToken(new MessageId(1, 2, "000123"), now, 5);

    assertThat(codec.decode(codec.encode(token))).isEqualTo(new Verdict.Valid(token));
  }

  @Test
  void refusals_say_why() {
    String token = codec.encode(new MessageToken(new MessageId(7, 8, "42"), now, 5));
    var retired = TokenCodec.of(new Secret("a-secret-nobody-uses-here"));

    assertThat(codec.decode("")).isEqualTo(new Verdict.Refused(Reason.MALFORMED));
    assertThat(codec.decode("not a token!")).isEqualTo(new Verdict.Refused(Reason.MALFORMED));
    assertThat(codec.decode(token + "A")).isInstanceOf(Verdict.Refused.class);
    assertThat(codec.decode(token.substring(0, token.length() - 1)))
        .isInstanceOf(Verdict.Refused.class);
    assertThat(retired.decode(token))
        .isIn(new Verdict.Refused(Reason.UNKNOWN_KEY), new Verdict.Refused(Reason.FORGED));
  }

  @Test
  void a_secret_too_short_to_sign_is_a_configuration_error() {
    assertThatThrownBy(() -> TokenCodec.of(new Secret("long-enough-secret-123, short")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 16 characters")
        .hasMessageContaining("commas");
  }

  @Test
  void ids_and_times_out_of_range_are_refused_when_written() {
    assertThatThrownBy(() -> new MessageId(-1, 0, "s")).hasMessageContaining("campaignId");
    assertThatThrownBy(() -> new MessageId(1, 0, "has space")).hasMessageContaining("subscriberId");
    assertThatThrownBy(() ->
            new MessageToken(new MessageId(1, 1, "s"), Instant.parse("2023-12-31T23:59:00Z"), 5))
        .hasMessageContaining("issuedAt");
  }
}
