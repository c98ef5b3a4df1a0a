package dev.tidings.queue.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Address;
import java.net.URI;
import org.junit.jupiter.api.Test;

class AmqpAddressesTest {

  @Test
  void one_node_keeps_its_url_and_takes_the_default_port() {
    var addresses = AmqpAddresses.parse(URI.create("amqp://guest:guest@127.0.0.1/vh"));
    assertThat(addresses.nodes()).containsExactly(new Address("127.0.0.1", 5672));
    assertThat(addresses.firstNode()).hasToString("amqp://guest:guest@127.0.0.1:5672/vh");
  }

  @Test
  void several_nodes_share_credentials_virtual_host_and_query() {
    var addresses = AmqpAddresses.parse(
        URI.create("amqps://u:p%40ss@h1:5671,h2,10.0.0.3:5674/prod?heartbeat=10"));
    assertThat(addresses.nodes())
        .containsExactly(
            new Address("h1", 5671), new Address("h2", 5671), new Address("10.0.0.3", 5674));
    assertThat(addresses.firstNode()).hasToString("amqps://u:p%40ss@h1:5671/prod?heartbeat=10");
    assertThat(addresses.describe()).isEqualTo("h1:5671,h2:5671,10.0.0.3:5674");
  }

  @Test
  void one_ipv6_node_keeps_its_brackets() {
    var addresses = AmqpAddresses.parse(URI.create("amqp://u:p@[::1]:5674/"));
    assertThat(addresses.nodes()).containsExactly(new Address("::1", 5674));
    assertThat(addresses.firstNode()).hasToString("amqp://u:p@[::1]:5674/");
  }

  @Test
  void a_wrong_list_is_refused_without_showing_the_password() {
    for (String url : new String[] {
      "amqp://u:secret@h1:5672,,h3:5674/", "amqp://u:secret@h1:0/", "http://u:secret@h1/"
    }) {
      assertThatThrownBy(() -> AmqpAddresses.parse(URI.create(url)))
          .isInstanceOf(IllegalArgumentException.class)
          .message()
          .doesNotContain("secret");
    }
  }
}
