package dev.tidings.activity.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AggregateKeyTest {
  private static final String ALPHABET = "ab:@\\ -_.é✓s@i@b@";

  @Test
  void any_key_round_trips_through_its_text() {
    var random = new Random(20261123);
    for (int round = 0; round < 20_000; round++) {
      AggregateKey key = randomKey(random);
      String text = key.format();
      AggregateKey parsed = AggregateKey.parse(text);
      assertThat(parsed).as(text).isEqualTo(key);
      assertThat(parsed.format()).isEqualTo(text);
      assertThat(parsed.hashKey() + (key.bucket().isPresent() ? ":b@" + key.rangeKey() : ""))
          .isEqualTo(text);
    }
  }

  @Test
  void the_seeds_key_reads_as_text_segments_and_a_typed_one_splits_into_hash_and_range() {
    var seed = AggregateKey.parse(
        "s@UID:s@007f00000000000000:s@asset_click_activity.agg:s@story_agg:s@YEAR_MONTH_DAY:s@2013_08_12");
    assertThat(seed.parts()).hasSize(6).allMatch(KeyPart.Text.class::isInstance);

    var key = AggregateKey.of(
        new KeyPart.Text("user"),
        new KeyPart.Text("u-42"),
        new KeyPart.Text("purchases_by_brand"),
        new KeyPart.Number(7),
        new KeyPart.Day(LocalDate.of(2013, 8, 12)));
    assertThat(key.format()).isEqualTo("s@user:s@u-42:s@purchases_by_brand:i@7:b@2013-08-12");
    assertThat(key.hashKey()).isEqualTo("s@user:s@u-42:s@purchases_by_brand:i@7");
    assertThat(key.rangeKey()).isEqualTo("2013-08-12");
  }

  @Test
  void periods_of_one_scope_sort_in_time_order_as_text() {
    var random = new Random(7);
    for (Scope scope : Scope.values()) {
      List<LocalDate> days = new ArrayList<>();
      for (int i = 0; i < 200; i++)
        days.add(LocalDate.of(1990, 1, 1).plusDays(random.nextInt(40 * 365)));
      List<String> byTime =
          days.stream().sorted().map(day -> scope.bucketOf(day).text()).toList();
      assertThat(byTime).isSortedAccordingTo(Comparator.naturalOrder());
    }
    assertThat(Scope.MONTH.bucketOf(LocalDate.of(2026, 11, 23)))
        .isEqualTo(new KeyPart.Month(YearMonth.of(2026, 11)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''|the key is empty",
        "user|segment 1 does not start with a type tag",
        "s@a:|segment 2 does not start with a type tag",
        "x@a|unknown type tag 'x@'",
        "i@12a|segment 1 (i@) is not a whole number",
        "i@+1|segment 1 (i@) is not a whole number",
        "s@a\\|ends in a lone backslash",
        "b@2013-13|not a valid day, month or year",
        "b@13|a period is a day",
        "b@2013:s@a|a period (b@) can only be a key's last segment"
      })
  void a_key_off_the_grammar_is_refused_saying_why(String text, String why) {
    assertThatThrownBy(() -> AggregateKey.parse(text))
        .isInstanceOf(KeyProblem.class)
        .hasMessageContaining(why);
  }

  private static AggregateKey randomKey(Random random) {
    int segments = 1 + random.nextInt(6);
    List<KeyPart> parts = new ArrayList<>();
    for (int i = 0; i < segments; i++) {
      parts.add(
          random.nextBoolean()
              ? new KeyPart.Text(randomText(random))
              : new KeyPart.Number(random.nextLong() >> random.nextInt(64)));
    }
    if (random.nextBoolean()) {
      LocalDate day = LocalDate.of(1000, 1, 1).plusDays(random.nextInt(3_000_000));
      parts.add(Scope.values()[random.nextInt(4)].bucketOf(day));
    }
    return new AggregateKey(parts);
  }

  private static String randomText(Random random) {
    var text = new StringBuilder();
    int length = random.nextInt(8);
    for (int i = 0; i < length; i++)
      text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    return text.toString();
  }
}
