package dev.tidings.audience;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.EmailAddress;
import dev.tidings.InvalidInputException;
import dev.tidings.Problems;
import dev.tidings.fuzz.ImportRows;
import dev.tidings.fuzz.Inputs;
import dev.tidings.imports.Format;
import java.time.Instant;
import java.time.InstantSource;

/**
 * The audience's parsers an outsider reaches: subscriber and follow import rows (CSV and JSON Lines), the
 * JSON bodies of the API, and the subscriber email rule. Each returns a value or refuses with
 * InvalidInputException, whatever the bytes.
 */
class AudienceParsersFuzzTest {
  private static final InstantSource CLOCK =
      InstantSource.fixed(Instant.parse("2026-01-01T00:00:00Z"));

  @FuzzTest
  void subscriber_csv_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.CSV, SubscriberRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void subscriber_json_lines_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.JSON_LINES, SubscriberRows.INSTANCE),
        InvalidInputException.class);
  }

  @FuzzTest
  void follow_csv_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.CSV, new FollowRows(CLOCK)),
        InvalidInputException.class);
  }

  @FuzzTest
  void follow_json_lines_rows(byte[] data) {
    allowOnly(
        () -> ImportRows.readAll(data, Format.JSON_LINES, new FollowRows(CLOCK)),
        InvalidInputException.class);
  }

  @FuzzTest
  void subscriber_json(byte[] data) {
    Inputs.json(data)
        .ifPresent(node ->
            allowOnly(() -> AudienceJson.subscriberFromJson(node), InvalidInputException.class));
  }

  @FuzzTest
  void follow_and_suppression_json(byte[] data) {
    Inputs.json(data).ifPresent(node -> {
      allowOnly(() -> AudienceJson.followFromJson(node, CLOCK), InvalidInputException.class);
      allowOnly(() -> AudienceJson.suppressionFromJson(node, CLOCK), InvalidInputException.class);
    });
  }

  @FuzzTest
  void email_address(byte[] data) {
    String text = Inputs.text(data);
    allowOnly(() -> EmailRule.check(text), InvalidInputException.class);
  }

  /**
   * The one place that names the email parser under test: the subscriber format's rule, which is
   * {@link EmailAddress}; an address it accepts must be one bare mailbox whose normalised form parses
   * to itself, so the store and the send-time check can never disagree.
   */
  static final class EmailRule {
    private EmailRule() {}

    static void check(String text) {
      var problems = new Problems();
      Subscriber.email(problems, text);
      problems.throwIfAny();
      String normalised = EmailAddress.of(text).value();
      if (!EmailAddress.of(normalised).value().equals(normalised))
        throw new AssertionError("normalising twice changed " + normalised);
      if (normalised.chars().filter(c -> c == '@').count() != 1
          || normalised.chars().anyMatch(c -> c <= ' ' || c > 0x7e || c == '<' || c == ','))
        throw new AssertionError("accepted an address that is not one bare mailbox: " + normalised);
    }
  }
}
