package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The jar a shop runs ({@code engine/target/tidings.jar}, built before the integration tests) holds the
 * engine and its libraries, and none of the tools: no benchmark, sample shop, simulated reader, offline
 * evaluation or tool command.
 */
class EngineJarIT {
  private static final Set<String> TOOL_PACKAGES = Set.of(
      "dev/tidings/bench/",
      "dev/tidings/demo/",
      "dev/tidings/sample/",
      "dev/tidings/recommend/evaluation/",
      "dev/tidings/web/sample/",
      "dev/tidings/tools/");

  @Test
  void the_engine_jar_lists_the_engine_packages_and_no_tool() throws IOException {
    Set<String> packages = new TreeSet<>();
    Set<String> classes = new TreeSet<>();
    try (var jar = new JarFile(Path.of("target", "tidings.jar").toFile())) {
      jar.stream()
          .map(entry -> entry.getName())
          .filter(name -> name.startsWith("dev/tidings/") && name.endsWith(".class"))
          .forEach(name -> {
            packages.add(name.substring(0, name.lastIndexOf('/') + 1));
            classes.add(name);
          });
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
          .isEqualTo("dev.tidings.Main");
    }
    assertThat(packages)
        .contains(
            "dev/tidings/app/",
            "dev/tidings/campaign/send/",
            "dev/tidings/opentime/",
            "dev/tidings/web/dashboard/")
        .hasSizeGreaterThan(40);
    for (String tool : TOOL_PACKAGES)
      assertThat(packages).as("tool package %s", tool).noneMatch(p -> p.startsWith(tool));
    assertThat(classes)
        .as("tool commands")
        .noneMatch(name -> name.matches("dev/tidings/cli/.*(Bench|Demo|Evaluate).*"));
  }
}
