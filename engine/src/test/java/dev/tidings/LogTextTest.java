package dev.tidings;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {
  @Test
  void line_breaks_and_other_control_characters_are_written_as_escapes() {
    assertThat(LogText.of("m-1\r\n12:00 INFO forged\u0000\u001b[2J\u0085\u2028\t"))
        .isEqualTo("m-1\\r\\n12:00 INFO forged\\u0000\\u001b[2J\\u0085\\u2028\\t");
  }

  @Test
  void a_backslash_is_doubled_so_an_escape_in_the_log_always_means_the_character() {
    assertThat(LogText.of("a\\nb")).isEqualTo("a\\\\nb");
    assertThat(LogText.of("a\nb")).isEqualTo("a\\nb");
  }

  @Test
  void plain_text_is_kept_as_it_is_and_null_named() {
    String plain = "Ω≈ç √ 😀 queue 'campaign.send'";
    assertThat(LogText.of(plain)).isSameAs(plain);
    assertThat(LogText.of(null)).isEqualTo("null");
    assertThat(LogText.of(42)).isEqualTo("42");
  }

  @Test
  void a_long_text_is_cut_and_says_how_long_it_was() {
    String shown = LogText.of("x".repeat(10_000) + "\n");
    assertThat(shown).startsWith("x".repeat(LogText.MAX_CHARS)).endsWith("...(10001 chars)");
    assertThat(shown).doesNotContain("\n");
  }
}
