package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import dev.tidings.config.Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The access log is on only when asked for; the application's own lines are there either way. */
class LoggingTest {
  @AfterEach
  void backToTheTestDefaults() throws Exception {
    var context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  @Test
  void each_request_is_logged_only_with_the_access_log_on() {
    Logging.configure(Settings.LogFormat.TEXT, true);
    assertThat(LoggerFactory.getLogger("tidings.access").isInfoEnabled()).isTrue();

    Logging.configure(Settings.LogFormat.TEXT, false);
    assertThat(LoggerFactory.getLogger("tidings.access").isInfoEnabled()).isFalse();
    assertThat(LoggerFactory.getLogger("tidings.access").isErrorEnabled()).isFalse();
    assertThat(LoggerFactory.getLogger(Node.class).isInfoEnabled()).isTrue();
  }
}
