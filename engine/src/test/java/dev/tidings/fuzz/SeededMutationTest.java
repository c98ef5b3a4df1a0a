package dev.tidings.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every build's slice of fuzzing: each {@code @FuzzTest} target gets a few thousand seeded mutations of its
 * seed corpus (for {@code fuzz.slice}, 1.5 s by default, at most {@code fuzz.slice.inputs}), on top of
 * the seeds that Jazzer's regression mode replays. A failure lists each kind of finding once, with the
 * smallest input found for it, so that it can be copied into the target's seed corpus.
 */
class SeededMutationTest {
  private static final Duration SLICE =
      Duration.parse("PT" + System.getProperty("fuzz.slice", "1.5s").toUpperCase(Locale.ROOT));
  private static final int MAX_INPUTS = Integer.getInteger("fuzz.slice.inputs", 20_000);
  private static final long SEED = Long.getLong("fuzz.seed", 20_260_101L);

  @TestFactory
  Stream<DynamicTest>
      every_fuzz_target_refuses_mutated_seeds_only_with_its_documented_exceptions() {
    return FuzzTargets.all().stream()
        .map(target -> DynamicTest.dynamicTest(target.name(), () -> run(target)));
  }

  private static void run(FuzzTargets.Target target) {
    List<byte[]> seeds = target.seeds();
    assertThat(seeds)
        .as("seed corpus of %s in src/test/resources/%s", target.name(), target.inputsResource())
        .isNotEmpty();
    var mutator = new SeedMutator(seeds, SEED ^ target.name().hashCode());
    Map<String, byte[]> findings = new LinkedHashMap<>();
    Map<String, Throwable> examples = new LinkedHashMap<>();
    long deadline = System.nanoTime() + SLICE.toNanos();
    int inputs = 0;
    List<byte[]> queue = new ArrayList<>(seeds);
    while (inputs < MAX_INPUTS && System.nanoTime() < deadline) {
      byte[] data = inputs < queue.size() ? queue.get(inputs) : mutator.next();
      inputs++;
      Throwable thrown = attempt(target, data);
      if (thrown == null) continue;
      String kind = kind(thrown);
      if (findings.containsKey(kind) && findings.get(kind).length <= data.length) continue;
      findings.put(kind, data);
      examples.put(kind, thrown);
    }
    List<String> report = new ArrayList<>();
    findings.forEach((kind, data) -> {
      byte[] smallest = Minimizer.minimize(
          data, candidate -> kind.equals(kindOrNull(attempt(target, candidate))));
      report.add(kind + "\n    input (" + smallest.length + " bytes): " + Minimizer.show(smallest)
          + "\n    hex: " + HexFormat.of().formatHex(smallest, 0, Math.min(smallest.length, 200)));
      examples.get(kind).printStackTrace();
    });
    System.out.printf(
        "fuzz slice %s: %d inputs, %d kinds of finding%n", target.name(), inputs, findings.size());
    assertThat(report).as("findings of %s (%d inputs)", target.name(), inputs).isEmpty();
  }

  private static Throwable attempt(FuzzTargets.Target target, byte[] data) {
    try {
      target.run(data);
      return null;
    } catch (Throwable thrown) {
      return thrown;
    }
  }

  private static String kindOrNull(Throwable thrown) {
    return thrown == null ? null : kind(thrown);
  }

  /** A finding's kind: the exception and where it was thrown in Tidings' code, message left out. */
  static String kind(Throwable thrown) {
    Throwable cause = thrown instanceof Refusals.Finding && thrown.getCause() != null
        ? thrown.getCause()
        : thrown;
    String where = "";
    for (StackTraceElement frame : cause.getStackTrace()) {
      if (frame.getClassName().startsWith("dev.tidings.")
          && !frame.getClassName().startsWith("dev.tidings.fuzz.")) {
        where = " at " + frame.getClassName() + "." + frame.getMethodName() + ":"
            + frame.getLineNumber();
        break;
      }
    }
    return cause.getClass().getName() + where;
  }
}
