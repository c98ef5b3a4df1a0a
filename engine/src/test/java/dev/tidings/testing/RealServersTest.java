package dev.tidings.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A real-server test whose server is missing fails under CI and is skipped elsewhere; never passes. */
class RealServersTest {
  private static int closedPort() throws Exception {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort(); // free once closed: nothing listens there
    }
  }

  @Test
  void under_ci_a_missing_server_fails_the_test() throws Exception {
    int port = closedPort();
    assertThatThrownBy(() -> RealServers.require("Redis", "127.0.0.1", port, true))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("Redis is not reachable at 127.0.0.1:" + port)
        .hasMessageContaining("CI=true");
  }

  @Test
  void elsewhere_a_missing_server_skips_the_test() throws Exception {
    int port = closedPort();
    assertThatThrownBy(() -> RealServers.require("RabbitMQ", "127.0.0.1", port, false))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("RabbitMQ is not reachable");
  }

  @Test
  void a_listening_server_lets_the_test_run() throws Exception {
    try (var listening = new ServerSocket(0)) {
      assertThatCode(
              () -> RealServers.require("PostgreSQL", "127.0.0.1", listening.getLocalPort(), true))
          .doesNotThrowAnyException();
    }
  }
}
