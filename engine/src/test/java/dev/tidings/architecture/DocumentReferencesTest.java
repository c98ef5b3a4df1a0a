package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.Repository;
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
    Path root = Repository.root();
    return Files.exists(root.resolve(name))
        || Files.exists(root.resolve("docs").resolve(name))
        || (parent != null && Files.exists(parent.resolve(name)));
  }

  private static List<Path> namingFiles() throws IOException {
    Path root = Repository.root();
    List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.list(root.resolve("docs"));
        Stream<Path> engine = Files.walk(root.resolve("engine/src/main/java"));
        Stream<Path> tools = Files.walk(root.resolve("tools/src/main/java"))) {
      docs.filter(f -> f.toString().endsWith(".md")).forEach(files::add);
      Stream.concat(engine, tools).filter(f -> f.toString().endsWith(".java")).forEach(files::add);
    }
    return files;
  }
}
