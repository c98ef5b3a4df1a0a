package dev.tidings.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release's sample settings file names every setting the loader reads, sets none of them as it
 * ships, and each of its lines, uncommented, is a value the loader takes.
 */
class SampleSettingsFileTest {
  private static final String TEXT = SampleSettingsFile.text();

  @Test
  void every_setting_is_there_once_and_commented_out() throws IOException {
    for (Setting setting : SettingsCatalog.ALL) {
      if (setting.equals(SettingsCatalog.CONFIG)) continue;
      assertThat(TEXT.lines().filter(line -> line.startsWith("#" + setting.name() + "=")))
          .as(setting.name())
          .hasSize(1);
    }
    var shipped = new Properties();
    shipped.load(new StringReader(TEXT));
    assertThat(shipped).isEmpty();
  }

  @Test
  void secrets_are_empty_and_numbers_show_their_default() {
    assertThat(TEXT).contains("\n#TIDINGS_API_KEY=\n", "\n#TIDINGS_DB_PASSWORD=\n");
    assertThat(TEXT).contains("\n#TIDINGS_SMTP_URL=\n", "\n#TIDINGS_MAX_BODY_BYTES=1048576\n");
    assertThat(TEXT).contains("\n#TIDINGS_DB_POOL_SIZE=16\n", "\n#TIDINGS_SHUTDOWN_GRACE=PT10S\n");
    assertThat(TEXT.lines()).allMatch(line -> line.length() <= 100, "at most 100 characters");
  }

  @Test
  void uncommented_the_defaults_load(@TempDir Path dir) throws IOException {
    String uncommented = TEXT.lines()
        .filter(line -> line.matches("#TIDINGS_[A-Z0-9_]+=.+"))
        .map(line -> line.substring(1))
        .collect(Collectors.joining("\n"));
    Path file = Files.writeString(dir.resolve("tidings.properties"), uncommented);

    var loaded = SettingsLoader.load(Map.of("TIDINGS_CONFIG", file.toString())).describe();

    assertThat(loaded)
        .containsEntry("TIDINGS_PORT", "8080")
        .containsEntry("TIDINGS_LOG_FORMAT", "auto");
  }
}
