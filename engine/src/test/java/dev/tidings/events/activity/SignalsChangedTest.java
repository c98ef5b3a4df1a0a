package dev.tidings.events.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.KeyPart;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalsChangedTest {
  /** A line as the V29 trigger writes it: the person's part of an aggregate key. */
  private static String line(String id) {
    String key = AggregateKey.of(new KeyPart.Text("user"), new KeyPart.Text(id)).format();
    return key.substring("s@user:".length());
  }

  @Test
  void each_line_names_one_person_whatever_their_id_holds() {
    List<String> ids = List.of("ada", "e\\v:e", "a:b", "back\\", "ünï cödé");
    assertThat(SignalsChanged.decode(ids.stream().map(SignalsChangedTest::line).toList()))
        .containsExactly(ids.stream().map(SignalsChanged.Of::new).toArray(SignalsChanged[]::new));
  }

  @Test
  void a_star_means_everyone_and_nothing_else_needs_telling() {
    assertThat(SignalsChanged.decode(List.of("s@ada", "*", "s@bob")))
        .containsExactly(new SignalsChanged.Everyone());
  }

  @Test
  void lines_that_are_not_one_text_part_are_dropped_not_thrown_on() {
    assertThat(SignalsChanged.decode(List.of("", "s@", "i@12", "ada", "s@a:b", "s@lone\\", "s@ok")))
        .containsExactly(new SignalsChanged.Of("ok"));
  }
}
