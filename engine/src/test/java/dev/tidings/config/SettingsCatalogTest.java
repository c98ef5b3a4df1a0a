package dev.tidings.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The settings are declared once, in {@link SettingsCatalog}: the README's table is that list, the
 * start-up description names every one of them (secrets masked), and a number's or duration's default
 * is what a node gets when it is not set.
 */
class SettingsCatalogTest {
  private static final String HEADER = "| name | kind | default | meaning |";

  static String table() {
    return SettingsCatalog.ALL.stream()
        .map(setting -> "| `" + setting.name() + "` | " + setting.kindShown() + " | "
            + setting.defaultShown() + " | " + setting.meaning() + " |")
        .collect(Collectors.joining("\n", HEADER + "\n| --- | --- | --- | --- |\n", "\n"));
  }

  @Test
  void the_readme_table_is_the_catalog() throws IOException {
    String readme = Files.readString(Repository.file("README.md"));
    var expected = table();
    int start = readme.indexOf(HEADER);
    String written = start < 0 ? "" : readme.substring(start, readme.indexOf("\n\n", start) + 1);
    if (!written.equals(expected))
      Files.writeString(Repository.file("engine/target/settings-table.md"), expected);
    assertThat(written)
        .as(
            "README.md's settings table; engine/target/settings-table.md has it as the catalog says")
        .isEqualTo(expected);
  }

  @Test
  void names_are_unique_and_the_loader_knows_exactly_the_catalog() {
    List<String> names = SettingsCatalog.ALL.stream().map(Setting::name).toList();
    assertThat(names).doesNotHaveDuplicates().hasSizeGreaterThan(30);
    assertThat(SettingsCatalog.named("TIDINGS_PORT")).contains(SettingsCatalog.PORT);
    var unknown = Map.of("TIDINGS_NOT_A_SETTING", "x");
    assertThat(SettingsLoader.load(unknown).describe()).doesNotContainKey("TIDINGS_NOT_A_SETTING");
  }

  @Test
  void the_start_up_description_names_every_setting_and_shows_no_secret() {
    Map<String, String> environment = new HashMap<>();
    for (Setting setting : SettingsCatalog.ALL)
      if (setting.secret()) environment.put(setting.name(), "secret-of-" + setting.name());
    environment.put("TIDINGS_POSTMARK_WEBHOOK_USER", "hooks");

    var described = SettingsLoader.load(environment).describe();

    assertThat(described.keySet())
        .containsExactlyInAnyOrderElementsOf(SettingsCatalog.ALL.stream()
            .filter(setting -> setting != SettingsCatalog.CONFIG)
            .map(Setting::name)
            .toList());
    assertThat(described.values()).noneMatch(value -> value.contains("secret-of-"));
  }

  @Test
  void a_numbers_or_durations_default_is_what_an_unset_node_gets() {
    var described = SettingsLoader.load(Map.of()).describe();
    for (Setting setting : SettingsCatalog.ALL) {
      switch (setting.kind()) {
        case INTEGER, BYTES, DURATION ->
          assertThat(described.get(setting.name()))
              .as(setting.name())
              .isEqualTo(setting.literalDefault().orElseThrow());
        default -> {}
      }
    }
    assertThat(SettingsLoader.load(Map.of()).dataDir().toString()).endsWith("data");
  }

  @Test
  void a_number_outside_its_declared_range_is_refused_with_the_range() {
    var problems = new ArrayList<String>();
    try {
      SettingsLoader.load(Map.of("TIDINGS_SEND_SENDERS", "65", "TIDINGS_DB_POOL_SIZE", "0"));
    } catch (ConfigException e) {
      problems.addAll(e.problems());
    }
    assertThat(problems)
        .containsExactlyInAnyOrder(
            "TIDINGS_SEND_SENDERS: must be between 1 and 64 but was 65",
            "TIDINGS_DB_POOL_SIZE: must be between 1 and 500 but was 0");
  }
}
