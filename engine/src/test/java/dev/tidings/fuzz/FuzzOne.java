package dev.tidings.fuzz;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Runs one fuzz test in its own JVM ({@code FuzzOne <class> <method>}): Jazzer fuzzes a single
 * {@code @FuzzTest} per process, so {@link FuzzCampaignTest} starts one of these for each target. Exits 0
 * when the test passed, 1 when it failed (a finding), 2 when it did not run.
 */
public final class FuzzOne {
  private FuzzOne() {}

  public static void main(String[] args) {
    var request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectMethod(args[0], args[1], "byte[]"))
        .build();
    var summary = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, summary);
    var result = summary.getSummary();
    result.printFailuresTo(
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true), 40);
    System.out.flush();
    if (result.getTestsFoundCount() == 0 || result.getTestsStartedCount() == 0) System.exit(2);
    System.exit(result.getTotalFailureCount() == 0 && result.getTestsSucceededCount() > 0 ? 0 : 1);
  }
}
