package dev.tidings.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.tidings.config.Settings;
import java.io.Console;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Application and access logs on standard error, so standard output stays for results a script may
 * read. Readable lines on a terminal; one JSON object per line otherwise (log shippers parse it).
 */
public final class Logging {
  private Logging() {}

  /**
   * At shutdown the embedded PostgreSQL stops on the same signal as we do, so pools and listeners see
   * their connections drop: expected then, and not worth a warning with a stack trace.
   */
  public static void quietForShutdown() {
    var context = (LoggerContext) LoggerFactory.getILoggerFactory();
    for (String noisy : new String[] {"com.zaxxer.hikari", "dev.tidings.queue", "org.postgresql"}) {
      context.getLogger(noisy).setLevel(Level.ERROR);
    }
  }

  /** A console whose output is a terminal (JDK 22-24 return a console for pipes too; 25 returns null again). */
  @SuppressWarnings("SystemConsoleNull") // the null check is for JDK 25, isTerminal() for 22-24
  private static boolean onTerminal() {
    Console console = System.console();
    return console != null && console.isTerminal();
  }

  /** As {@link #configure(Settings.LogFormat, boolean)}, without the access log. */
  public static void configure(Settings.LogFormat format) {
    configure(format, false);
  }

  /** The format of every line, and whether each HTTP request gets one on {@code tidings.access}. */
  public static void configure(Settings.LogFormat format, boolean accessLog) {
    boolean json = switch (format) {
      case JSON -> true;
      case TEXT -> false;
      case AUTO -> !onTerminal();
    };
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
    var context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    Encoder<ILoggingEvent> encoder;
    if (json) {
      var jsonEncoder = new JsonEncoder();
      jsonEncoder.setWithSequenceNumber(false);
      jsonEncoder.setWithNanoseconds(false);
      jsonEncoder.setWithContext(false);
      jsonEncoder.setWithArguments(false);
      jsonEncoder.setWithMessage(false);
      jsonEncoder.setWithFormattedMessage(true);
      encoder = jsonEncoder;
    } else {
      var pattern = new PatternLayoutEncoder();
      // the structured fields (campaign, run, message) after the message, when a line has any
      pattern.setPattern(
          "%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%replace( [%mdc]){' \\[\\]', ''}%n%ex{short}");
      encoder = pattern;
    }
    encoder.setContext(context);
    encoder.start();
    var appender = new ConsoleAppender<ILoggingEvent>();
    appender.setContext(context);
    appender.setName("stderr");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(appender);
    // Libraries that narrate every connection at INFO drown Tidings' own lines.
    context.getLogger("tidings.access").setLevel(accessLog ? Level.INFO : Level.OFF);
    for (String chatty : new String[] {
      "com.zaxxer.hikari",
      "org.flywaydb",
      "io.zonky",
      "io.helidon",
      "io.lettuce",
      "io.netty",
      "com.rabbitmq"
    }) {
      context.getLogger(chatty).setLevel(Level.WARN);
    }
  }
}
