package dev.tidings.web.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium through its chromedriver, as the dashboard's browser tests drive it, and
 * whole-page screenshots. Screenshots go to {@code target/screenshots}, or to the folder {@code
 * -Dtidings.screenshots} names ({@code docs/screenshots} refreshes the README's).
 */
final class HeadlessChromium {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SCREENSHOTS =
      Path.of(System.getProperty("tidings.screenshots", "target/screenshots"));
  private static final Duration WAIT = Duration.ofSeconds(20);

  private HeadlessChromium() {}

  /** Skips the test class where Chromium is not installed, except in CI, where that is a failure. */
  static void assumeInstalled() {
    boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!installed && "true".equals(System.getenv("CI")))
      throw new IllegalStateException(
          "CI needs Debian's chromium and chromium-driver (.ci/run installs them)");
    Assumptions.assumeTrue(
        installed,
        "SKIPPED: no /usr/bin/chromium and /usr/bin/chromedriver"
            + " (apt-get install chromium chromium-driver)");
  }

  /** A browser with a profile of its own in {@code profile}, 1280 by 900. */
  static WebDriver start(Path profile) throws IOException {
    var options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    var service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .build();
    Files.createDirectories(SCREENSHOTS);
    return new ChromeDriver(service, options);
  }

  /** The whole page: the window grows to the page's height first, then shrinks back. */
  static void screenshot(WebDriver browser, String name) {
    new WebDriverWait(browser, WAIT).until(b -> (Boolean) ((JavascriptExecutor) b)
        .executeScript("return [...document.images].every(i => i.complete)"));
    var window = browser.manage().window();
    Dimension before = window.getSize();
    long height = ((Number) ((JavascriptExecutor) browser)
            .executeScript("return document.documentElement.scrollHeight"))
        .longValue();
    window.setSize(new Dimension(
        before.getWidth(), (int) Math.min(4000, Math.max(before.getHeight(), height + 140))));
    try {
      byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
      Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      window.setSize(before);
    }
  }
}
