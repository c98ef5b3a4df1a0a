package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the losses and recoveries of one connection, and whether recovery found the same node or
 * another one of the cluster (a failover): {@code tidings_amqp_connection_lost_total{connection}} and
 * {@code tidings_amqp_connection_recoveries_total{connection,node}}, {@code node} being {@code same}
 * or {@code other}, so the labels stay bounded whatever the cluster's size.
 */
final class ConnectionRecoveries implements RecoveryListener {
  private static final Logger log = LoggerFactory.getLogger(ConnectionRecoveries.class);

  private final String role;
  private final AtomicReference<String> node;
  private final Counter lost;
  private final Counter sameNode;
  private final Counter otherNode;

  private ConnectionRecoveries(String role, String node, MeterRegistry metrics) {
    this.role = role;
    this.node = new AtomicReference<>(node);
    this.lost = Counter.builder("tidings_amqp_connection_lost")
        .description("RabbitMQ connections lost, each then recovered automatically")
        .tag("connection", role)
        .register(metrics);
    this.sameNode = recoveries(metrics, role, "same");
    this.otherNode = recoveries(metrics, role, "other");
  }

  private static Counter recoveries(MeterRegistry metrics, String role, String node) {
    return Counter.builder("tidings_amqp_connection_recoveries")
        .description("RabbitMQ connections recovered, on the node they had or on another")
        .tag("connection", role)
        .tag("node", node)
        .register(metrics);
  }

  /** Watches {@code connection} ({@code role}: publish or consume) when it recovers automatically. */
  static void watch(Connection connection, String role, MeterRegistry metrics) {
    if (connection instanceof Recoverable recoverable)
      recoverable.addRecoveryListener(new ConnectionRecoveries(role, nodeOf(connection), metrics));
  }

  private static String nodeOf(Connection connection) {
    return connection.getAddress().getHostAddress() + ":" + connection.getPort();
  }

  @Override
  public void handleRecoveryStarted(Recoverable recoverable) {
    lost.increment();
    log.warn("RabbitMQ {} connection to {} lost, recovering", role, node.get());
  }

  @Override
  public void handleRecovery(Recoverable recoverable) {
    if (!(recoverable instanceof Connection connection)) return;
    String now = nodeOf(connection);
    String before = node.getAndSet(now);
    (now.equals(before) ? sameNode : otherNode).increment();
    log.info("RabbitMQ {} connection recovered on {} (was {})", role, now, before);
  }
}
