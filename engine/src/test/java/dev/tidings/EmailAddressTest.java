package dev.tidings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.EmailAddress.Problem;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class EmailAddressTest {

  /** Input, then its normalised form. */
  @ParameterizedTest
  @CsvSource(
      delimiterString = " => ",
      value = {
        "ann@example.com => ann@example.com",
        "Ann.Lee@Example.COM => Ann.Lee@example.com",
        "first.last+tag@sub.shop.example => first.last+tag@sub.shop.example",
        "o'brien@example.ie => o'brien@example.ie",
        "x!#$%&*/=?^_`{|}~-@example.com => x!#$%&*/=?^_`{|}~-@example.com",
        "user@xn--bcher-kva.example => user@xn--bcher-kva.example",
        "user@bücher.example => user@xn--bcher-kva.example",
        "user@BÜCHER.Example => user@xn--bcher-kva.example",
        "user@müller.de => user@xn--mller-kva.de",
        "user@例え.jp => user@xn--r8jz45g.jp",
        "a@b-c.d-e.example => a@b-c.d-e.example",
        "1@2.example => 1@2.example"
      })
  void accepted_addresses_are_stored_with_the_domain_in_lower_case_ascii(
      String text, String normalised) {
    var parsed = EmailAddress.parse(text);
    assertThat(parsed).isInstanceOf(EmailAddress.Valid.class);
    var address = ((EmailAddress.Valid) parsed).address();
    assertThat(address.value()).isEqualTo(normalised);
    assertThat(address.domain()).isEqualTo(normalised.substring(normalised.indexOf('@') + 1));
    assertThat(EmailAddress.of(text)).isEqualTo(address);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of("", Problem.EMPTY, "must not be empty"),
        Arguments.of("a>,<victim@evil.example", Problem.NOT_ONE_ADDRESS, "'>'"),
        Arguments.of("a@b.example,c@d.example", Problem.NOT_ONE_ADDRESS, "lists"),
        Arguments.of("a@b.example@d.example", Problem.NOT_ONE_ADDRESS, "single @"),
        Arguments.of("a@b,c", Problem.NOT_ONE_ADDRESS, "','"),
        Arguments.of("\"x\"@y.example", Problem.NOT_ONE_ADDRESS, "quotes"),
        Arguments.of("\"a b\"@y.example", Problem.NOT_ONE_ADDRESS, "quotes"),
        Arguments.of("a@b.example>", Problem.NOT_ONE_ADDRESS, "'>'"),
        Arguments.of("<a@b.example>", Problem.NOT_ONE_ADDRESS, "'<'"),
        Arguments.of("Ann <a@b.example>", Problem.CONTROL_CHARACTER, "spaces"),
        Arguments.of("Ann<a@b.example>", Problem.NOT_ONE_ADDRESS, "display name"),
        Arguments.of("a@b.example (c)", Problem.CONTROL_CHARACTER, "spaces"),
        Arguments.of("a@b.example(c)", Problem.NOT_ONE_ADDRESS, "comments"),
        Arguments.of("a@b.example\r\nBcc: v@evil.example", Problem.CONTROL_CHARACTER, "line"),
        Arguments.of("a@b.example\n", Problem.CONTROL_CHARACTER, "line"),
        Arguments.of("a\u0000@b.example", Problem.CONTROL_CHARACTER, "control"),
        Arguments.of("a\u00a0@b.example", Problem.CONTROL_CHARACTER, "spaces"),
        Arguments.of("a@[127.0.0.1]", Problem.NOT_ONE_ADDRESS, "address literals"),
        Arguments.of("a@127.0.0.1", Problem.DOMAIN, "not an IP address"),
        Arguments.of("a@localhost", Problem.DOMAIN, "at least one dot"),
        Arguments.of("group:a@b.example;", Problem.NOT_ONE_ADDRESS, "':'"),
        Arguments.of("a\\b@c.example", Problem.NOT_ONE_ADDRESS, "'\\'"),
        Arguments.of("ann.example.com", Problem.NOT_ONE_ADDRESS, "with an @"),
        Arguments.of("@example.com", Problem.LOCAL_PART, "before @"),
        Arguments.of("ann@", Problem.DOMAIN, "domain after @"),
        Arguments.of("a@b@c.example", Problem.NOT_ONE_ADDRESS, "single @"),
        Arguments.of(".ann@example.com", Problem.LOCAL_PART, "dot"),
        Arguments.of("ann.@example.com", Problem.LOCAL_PART, "dot"),
        Arguments.of("a..nn@example.com", Problem.LOCAL_PART, "two dots"),
        Arguments.of("jörg@example.com", Problem.LOCAL_PART, "ASCII"),
        Arguments.of("ann@exa_mple.com", Problem.DOMAIN, "letters, digits, hyphens"),
        Arguments.of("ann@-example.com", Problem.DOMAIN, "hyphen"),
        Arguments.of("ann@example-.com", Problem.DOMAIN, "hyphen"),
        Arguments.of("ann@example..com", Problem.DOMAIN, "empty label"),
        Arguments.of("ann@example.com.", Problem.DOMAIN, "empty label"),
        Arguments.of("ann@.example.com", Problem.DOMAIN, "empty label"),
        Arguments.of("ann@exa!mple.com", Problem.DOMAIN, "letters, digits, hyphens"),
        Arguments.of("a".repeat(65) + "@example.com", Problem.LOCAL_PART, "at most 64"),
        Arguments.of("ann@" + "a".repeat(64) + ".example", Problem.DOMAIN, "at most 63"),
        Arguments.of(
            "a".repeat(64) + "@" + ("a".repeat(60) + ".").repeat(3) + "a".repeat(7),
            Problem.TOO_LONG,
            "at most 254"),
        Arguments.of("ann@bü\u2028cher.example", Problem.CONTROL_CHARACTER, "spaces"),
        Arguments.of("ann@bü_cher.example", Problem.DOMAIN, "internationalised domain"));
  }

  @ParameterizedTest
  @MethodSource("refused")
  void refused_addresses_say_what_is_wrong(String text, Problem problem, String saying) {
    var parsed = EmailAddress.parse(text);
    assertThat(parsed).isInstanceOf(EmailAddress.Invalid.class);
    var invalid = (EmailAddress.Invalid) parsed;
    assertThat(invalid.problem()).isEqualTo(problem);
    assertThat(invalid.message()).contains(saying);
    assertThatThrownBy(() -> EmailAddress.of(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(invalid.message());
  }

  @Test
  void the_longest_addresses_allowed_are_accepted() {
    String local = "a".repeat(EmailAddress.MAX_LOCAL_PART);
    String domain = ("b".repeat(62) + ".").repeat(2) + "c".repeat(55) + ".example";
    assertThat(domain.length()).isLessThanOrEqualTo(EmailAddress.MAX_DOMAIN);
    String text = local + "@" + domain;
    assertThat(text.length()).isLessThanOrEqualTo(EmailAddress.MAX_LENGTH);
    assertThat(EmailAddress.of(text).value()).isEqualTo(text);
  }

  @Test
  void an_address_already_normalised_is_kept_as_the_same_text() {
    String text = "ann@example.com";
    assertThat(EmailAddress.of(text).value()).isSameAs(text);
  }

  @Test
  void addresses_that_predate_the_rule_are_looked_up_as_they_are() {
    assertThat(EmailAddress.normalisedOrAsGiven("Ann@BÜCHER.example"))
        .isEqualTo("Ann@xn--bcher-kva.example");
    assertThat(EmailAddress.normalisedOrAsGiven("a>,<victim@evil.example"))
        .isEqualTo("a>,<victim@evil.example");
  }

  @Test
  void the_problem_labels_are_a_small_fixed_set_for_metrics() {
    assertThat(Stream.of(Problem.values()).map(Problem::label))
        .containsExactly(
            "empty", "too_long", "control_character", "not_one_address", "local_part", "domain");
  }

  @Test
  void parsing_a_long_hostile_address_takes_linear_time() {
    String hostile = "a.".repeat(30) + "@" + "a-".repeat(95) + "a";
    long start = System.nanoTime();
    for (int i = 0; i < 100_000; i++) EmailAddress.parse(hostile);
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }
}
