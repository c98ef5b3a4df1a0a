package dev.tidings.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Header injection is refused where the data enters, not left to the MIME library. */
class OutgoingEmailTest {
  private static final Address FROM = Address.of("news@shop.example", "Shop");
  private static final Address TO = Address.of("ann@example.com");

  private static OutgoingEmail withSubject(String subject) {
    return new OutgoingEmail("m-1", FROM, TO, subject, "text", Optional.empty(), Map.of());
  }

  private static OutgoingEmail withHeader(String name, String value) {
    return new OutgoingEmail(
        "m-1", FROM, TO, "subject", "text", Optional.empty(), Map.of(name, value));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"Hi\r\nBcc: victim@example.com", "Hi\nBcc: x@example.com", "Hi\rX", "Hi\0"})
  void a_subject_with_a_line_break_is_refused(String subject) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> withSubject(subject))
        .withMessageContaining("header injection");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Ann\r\nBcc: victim@example.com", "Ann\nX-Evil: 1"})
  void a_display_name_with_a_line_break_is_refused(String name) {
    assertThatIllegalArgumentException().isThrownBy(() -> Address.of("ann@example.com", name));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ann@example.com\r\nBcc: v@example.com",
        "ann@exa\nmple.com",
        "ann example@x.com",
        "no-at",
        "a@b@c",
        "@x.com",
        "ann@",
        "a>,<victim@evil.example",
        "ann@example.com, victim@evil.example",
        "ann@example.com,victim@evil.example",
        "Ann <ann@example.com>",
        "<ann@example.com>",
        "\"ann\"@example.com",
        "ann@example.com (Ann)",
        "ann@[127.0.0.1]",
        "ann@example.com\0"
      })
  void an_email_address_that_could_inject_or_is_malformed_is_refused(String email) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Address.of(email, "Angle"))
        .withMessageStartingWith("the address must");
  }

  @Test
  void an_address_is_kept_with_its_domain_in_lower_case_ascii() {
    assertThat(Address.of("Ann@BÜCHER.Example").email()).isEqualTo("Ann@xn--bcher-kva.example");
  }

  @Test
  void an_extra_header_value_with_a_line_break_is_refused() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> withHeader("List-Unsubscribe", "<https://x.example/u>\r\nBcc: v@example.com"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"X-Evil\r\nBcc", "X Space", "X:Colon", ""})
  void an_invalid_header_name_is_refused(String name) {
    assertThatIllegalArgumentException().isThrownBy(() -> withHeader(name, "v"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bcc",
        "to",
        "Message-ID",
        "X-Tidings-Message-Id",
        "content-type",
        "Reply-To",
        "sender"
      })
  void headers_tidings_sets_itself_cannot_be_overridden(String name) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> withHeader(name, "v"))
        .withMessageContaining("set by Tidings");
  }

  @ParameterizedTest
  @ValueSource(strings = {"m 1", "m<1>", "m\r\n1", ""})
  void a_message_id_with_spaces_brackets_or_breaks_is_refused(String messageId) {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> new OutgoingEmail(messageId, FROM, TO, "s", "t", Optional.empty(), Map.of()));
  }

  @Test
  void extra_headers_are_copied_and_unmodifiable() {
    var headers = new HashMap<String, String>(Map.of("List-Unsubscribe", "<https://x.example/u>"));
    var email = new OutgoingEmail("m-1", FROM, TO, "s", "t", Optional.empty(), headers);
    headers.put("X-Later", "1");
    assertThat(email.headers()).containsOnlyKeys("List-Unsubscribe");
    assertThatThrownBy(() -> email.headers().put("X", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
