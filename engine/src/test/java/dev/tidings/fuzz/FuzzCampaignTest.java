package dev.tidings.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The long fuzzing run ({@code ./mvnw verify -Pfuzz}): every {@code @FuzzTest} target is fuzzed by Jazzer
 * for {@code fuzz.duration} (10m by default in the profile), one JVM each with {@code JAZZER_FUZZ=1},
 * since Jazzer fuzzes one test per process. {@code fuzz.targets} (a regular expression over
 * "Class#method") picks some. Each run's output goes to target/fuzz/&lt;target&gt;.log; a finding is
 * saved by Jazzer as a file in the target's seed directory, where every later build replays it.
 */
@EnabledIfSystemProperty(named = "fuzz.duration", matches = ".+")
class FuzzCampaignTest {
  @Test
  void every_fuzz_target_survives_its_fuzzing_time() throws Exception {
    String duration = System.getProperty("fuzz.duration");
    Pattern only = Pattern.compile(System.getProperty("fuzz.targets", ".*"));
    Path logs = Path.of("target", "fuzz");
    Files.createDirectories(logs);
    List<String> failed = new ArrayList<>();
    int ran = 0;
    for (FuzzTargets.Target target : FuzzTargets.all()) {
      if (!only.matcher(target.name()).find()) continue;
      ran++;
      Path log = logs.resolve(target.name().replace('#', '.') + ".log");
      List<String> command = new ArrayList<>();
      command.add(ProcessHandle.current().info().command().orElse("java"));
      command.add("-Xmx2g");
      command.add("-XX:+EnableDynamicAgentLoading");
      command.add("-Djazzer.max_duration=" + duration);
      command.add("-Djazzer.instrument=dev.tidings.**");
      command.add("-cp");
      command.add(classPath());
      command.add(FuzzOne.class.getName());
      command.add(target.type().getName());
      command.add(target.method().getName());
      var process = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .directory(Path.of("").toAbsolutePath().toFile());
      process.environment().put("JAZZER_FUZZ", "1");
      long started = System.nanoTime();
      int exit = process.start().waitFor();
      System.out.printf(
          "fuzzed %s for %ds: %s (log %s)%n",
          target.name(),
          (System.nanoTime() - started) / 1_000_000_000L,
          exit == 0 ? "no finding" : "FAILED, exit " + exit,
          log);
      if (exit != 0) failed.add(target.name() + " (see " + log + ")");
    }
    assertThat(ran).as("fuzz targets matching fuzz.targets").isPositive();
    assertThat(failed).as("fuzz targets with findings").isEmpty();
  }

  private static String classPath() throws IOException {
    return ChildJvm.classPath();
  }
}
