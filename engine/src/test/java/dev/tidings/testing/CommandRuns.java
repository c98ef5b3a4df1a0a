package dev.tidings.testing;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import org.slf4j.LoggerFactory;

/** A command line run in this JVM as a user runs it: its exit status and what it printed. */
public final class CommandRuns {
  private CommandRuns() {}

  public record Run(int status, String out, String err) {}

  /** Runs {@code command} (a {@code TidingsCommand.run} or {@code ToolsMain.run}) capturing its output. */
  public static Run capture(IntSupplier command) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int status = command.getAsInt();
      return new Run(
          status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
  }

  /** The commands configure logging for a real run; later tests in this JVM get the test defaults back. */
  public static void restoreTestLogging() throws Exception {
    var context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }
}
