package dev.tidings.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FetchAllowanceTest {
  @Test
  void a_range_lets_its_addresses_through_on_any_port() throws UnknownHostException {
    var allowance = FetchAllowance.parse("10.20.0.0/16, fd00:1::/32");

    assertThat(allowance.allows("x", address("10.20.3.4"), 80)).isTrue();
    assertThat(allowance.allows("x", address("10.21.0.1"), 80)).isFalse();
    assertThat(allowance.allows("x", address("fd00:1::9"), 443)).isTrue();
    assertThat(allowance.allows("x", address("fd00:2::9"), 443)).isFalse();
  }

  @Test
  void an_address_with_a_port_lets_only_that_port_through() throws UnknownHostException {
    var allowance = FetchAllowance.parse("127.0.0.1:8080,[::1]:8080");

    assertThat(allowance.allows("localhost", address("127.0.0.1"), 8080)).isTrue();
    assertThat(allowance.allows("localhost", address("::1"), 8080)).isTrue();
    assertThat(allowance.allows("localhost", address("127.0.0.1"), 5432)).isFalse();
    assertThat(allowance.allows("localhost", address("127.0.0.2"), 8080)).isFalse();
  }

  @Test
  void a_host_name_lets_through_what_that_name_resolves_to() throws UnknownHostException {
    var allowance = FetchAllowance.parse("Images.Internal., cdn.internal:8443");

    assertThat(allowance.allows("images.internal", address("10.0.0.5"), 80)).isTrue();
    assertThat(allowance.allows("other.internal", address("10.0.0.5"), 80)).isFalse();
    assertThat(allowance.allows("cdn.internal", address("10.0.0.6"), 8443)).isTrue();
    assertThat(allowance.allows("cdn.internal", address("10.0.0.6"), 80)).isFalse();
  }

  @Test
  void an_empty_setting_allows_nothing() {
    assertThat(FetchAllowance.parse(" , ").isEmpty()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "10.0.0.0/33",
        "10.0.0.0/",
        "10.0.0/8",
        "fd00::/129",
        "not a host",
        "host_name",
        "10.0.0.1:0",
        "10.0.0.1:99999",
        "[::1",
        "[::1]x",
        "1.2.3"
      })
  void what_is_not_a_range_an_address_or_a_host_name_is_refused(String entry) {
    assertThatThrownBy(() -> FetchAllowance.parse("10.0.0.0/8," + entry))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(entry.length() > 4 ? entry.substring(0, 4) : entry);
  }

  private static InetAddress address(String literal) throws UnknownHostException {
    return InetAddress.getByName(literal);
  }
}
