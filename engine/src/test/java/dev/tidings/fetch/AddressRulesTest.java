package dev.tidings.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressRulesTest {
  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
    "8.8.8.8, PUBLIC",
    "93.184.215.14, PUBLIC",
    "1.1.1.1, PUBLIC",
    "127.0.0.1, LOOPBACK",
    "127.255.255.254, LOOPBACK",
    "10.0.0.1, PRIVATE",
    "172.16.0.1, PRIVATE",
    "172.31.255.255, PRIVATE",
    "172.32.0.1, PUBLIC",
    "192.168.1.1, PRIVATE",
    "169.254.169.254, LINK_LOCAL",
    "169.254.0.1, LINK_LOCAL",
    "100.64.0.1, SHARED",
    "100.127.255.255, SHARED",
    "100.128.0.1, PUBLIC",
    "0.0.0.0, UNSPECIFIED",
    "0.1.2.3, UNSPECIFIED",
    "224.0.0.1, MULTICAST",
    "239.255.255.250, MULTICAST",
    "255.255.255.255, BROADCAST",
    "240.0.0.1, RESERVED",
    "192.0.0.170, RESERVED",
    "192.0.2.1, DOCUMENTATION",
    "198.51.100.7, DOCUMENTATION",
    "203.0.113.9, DOCUMENTATION",
    "198.18.0.1, RESERVED",
    "2606:4700:4700::1111, PUBLIC",
    "2001:4860:4860::8888, PUBLIC",
    "::1, LOOPBACK",
    "::, UNSPECIFIED",
    "fe80::1, LINK_LOCAL",
    "fd00::1, PRIVATE",
    "fc00::1, PRIVATE",
    "fec0::1, PRIVATE",
    "ff02::1, MULTICAST",
    "2001:db8::1, DOCUMENTATION",
    "3fff::1, DOCUMENTATION",
    "::ffff:127.0.0.1, LOOPBACK",
    "::ffff:169.254.169.254, LINK_LOCAL",
    "::ffff:8.8.8.8, PUBLIC",
    "::127.0.0.1, LOOPBACK",
    "::10.0.0.1, PRIVATE",
    "::8.8.8.8, RESERVED",
    "64:ff9b::7f00:1, LOOPBACK",
    "64:ff9b::a9fe:a9fe, LINK_LOCAL",
    "64:ff9b::808:808, PUBLIC",
    "64:ff9b:1::1, PRIVATE",
    "2002:7f00:1::1, LOOPBACK",
    "2002:a9fe:a9fe::1, LINK_LOCAL",
    "2002:c0a8:101::1, PRIVATE",
    "2002:808:808::1, PUBLIC",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2, RESERVED",
    "100::1, RESERVED",
    "4000::1, RESERVED"
  })
  void addresses_are_classified(String address, AddressRules.Kind kind)
      throws UnknownHostException {
    assertThat(AddressRules.classify(InetAddress.getByName(address))).isEqualTo(kind);
  }

  @ParameterizedTest
  @CsvSource({"::ffff:7f00:1", "0:0:0:0:0:ffff:a9fe:a9fe"})
  void mapped_addresses_written_in_hex_are_the_same_as_their_ipv4_form(String address)
      throws UnknownHostException {
    assertThat(AddressRules.isPublic(InetAddress.getByName(address))).isFalse();
  }
}
