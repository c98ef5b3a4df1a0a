package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The drawing in docs/architecture.md names every capability wiring, every capability's routes package and every
 * capability: one added without its place in the drawing fails here, not in a reader's head.
 */
class ArchitecturePageTest {
  private static final Path SOURCES = Repository.file("engine/src/main/java/dev/tidings");

  /** Packages under dev.tidings that are infrastructure, edges or tools, not capabilities. */
  private static final List<String> NOT_CAPABILITIES = List.of(
      "app",
      "cli",
      "web",
      "config",
      "storage",
      "coordination",
      "jobs",
      "retention",
      "queue",
      "mail",
      "imports",
      "fetch",
      "bench",
      "sample",
      "demo");

  @Test
  void the_drawing_names_every_wiring_routes_package_and_capability() throws IOException {
    String page = Files.readString(Repository.file("docs/architecture.md"));
    int open = page.indexOf("```");
    String drawing = page.substring(open + 3, page.indexOf("```", open + 3));
    List<String> wirings = names(SOURCES.resolve("app"), true).stream()
        .filter(name -> name.endsWith("Wiring.java"))
        .map(name -> name.replace(".java", ""))
        .toList();
    List<String> routes =
        names(SOURCES.resolve("web"), false).stream().map(name -> "web." + name).toList();
    List<String> capabilities = names(SOURCES, false).stream()
        .filter(name -> !NOT_CAPABILITIES.contains(name))
        .toList();

    assertThat(wirings).hasSizeGreaterThan(10);
    assertThat(routes).hasSizeGreaterThan(10);
    assertThat(capabilities).hasSizeGreaterThan(8);
    for (String name : concat(wirings, routes, capabilities))
      assertThat(Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "(?![\\w.])")
              .matcher(drawing)
              .find())
          .as("%s in the drawing of docs/architecture.md", name)
          .isTrue();
  }

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    return Stream.of(lists).flatMap(List::stream).toList();
  }

  /** The file names (when {@code files}) or the sub-package names of a folder. */
  private static List<String> names(Path folder, boolean files) throws IOException {
    try (Stream<Path> entries = Files.list(folder)) {
      return entries
          .filter(entry -> files ? Files.isRegularFile(entry) : Files.isDirectory(entry))
          .map(entry -> entry.getFileName().toString())
          .sorted()
          .toList();
    }
  }

  @Test
  void the_modules_table_names_every_module_of_the_build() throws IOException {
    String pom = Files.readString(Repository.file("pom.xml"));
    String page = Files.readString(Repository.file("docs/architecture.md"));
    var modules = Pattern.compile("<module>([^<]+)</module>")
        .matcher(pom)
        .results()
        .map(match -> match.group(1))
        .toList();
    assertThat(modules).contains("engine", "tools");
    for (String module : modules)
      assertThat(page)
          .as("module %s in docs/architecture.md", module)
          .contains("| `" + module + "` (");
  }
}
