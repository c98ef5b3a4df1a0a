package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every document the code and the docs name is in the repository: a Javadoc or a page that sends the
 * reader to a file that is not there is worse than none. A name resolves against the repository root,
 * the naming file's folder or {@code docs/}.
 */
class DocumentReferencesTest {
  private static final Pattern DOCUMENT = Pattern.compile("(?<![\\w/.:-])([\\w./-]+\\.md)\\b");

  @Test
  void every_markdown_file_named_in_the_code_and_the_docs_exists() throws IOException {
    List<String> missing = new ArrayList<>();
    int seen = 0;
    for (Path file : namingFiles()) {
      Matcher names = DOCUMENT.matcher(Files.readString(file));
      while (names.find()) {
        seen++;
        String name = names.group(1);
        if (!resolves(file, name)) missing.add(file + " names " + name);
      }
    }
    assertThat(seen).as("document names found").isGreaterThan(10);
    assertThat(missing).isEmpty();
  }

  private static boolean resolves(Path namedIn, String name) {
    Path parent = namedIn.toAbsolutePath().getParent();
    return Files.exists(Path.of(name))
        || Files.exists(Path.of("docs", name))
        || (parent != null && Files.exists(parent.resolve(name)));
  }

  private static List<Path> namingFiles() throws IOException {
    List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
    try (Stream<Path> docs = Files.list(Path.of("docs"));
        Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
      docs.filter(f -> f.toString().endsWith(".md")).forEach(files::add);
      sources.filter(f -> f.toString().endsWith(".java")).forEach(files::add);
    }
    return files;
  }
}
