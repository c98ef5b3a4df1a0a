package dev.tidings.testing;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The settings of an installation of several node processes on the machine's PostgreSQL, Redis and
 * RabbitMQ, as a test starts it: a database of its own (dropped by {@link #drop}), send queues of its
 * own (so that tests running side by side never take each other's partitions), a secret and an API
 * key. {@link #environment()} is mutable: a test adds what it needs before starting its nodes.
 */
public record SharedServersInstallation(String database, Map<String, String> environment) {
  public static SharedServersInstallation create(String name, String apiKey) throws SQLException {
    RealServers.requireRedis();
    RealServers.requireRabbitMq();
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String database = "tidings_" + name + "_" + suffix;
    Map<String, String> environment = new HashMap<>();
    environment.put("TIDINGS_DB_URL", RealServers.createDatabase(database));
    environment.put("TIDINGS_REDIS_URL", RealServers.redisUrl().toString());
    environment.put("TIDINGS_AMQP_URL", RealServers.amqpUrl().toString());
    environment.put("TIDINGS_SEND_QUEUE", "it-" + name + "-send-" + suffix);
    environment.put("TIDINGS_SEND_RECEIPT_QUEUE", "it-" + name + "-outcome-" + suffix);
    environment.put("TIDINGS_SECRET", name + "-it-secret-" + suffix + "-0123456789abcdef");
    environment.put("TIDINGS_API_KEY", apiKey);
    return new SharedServersInstallation(database, environment);
  }

  public String databaseUrl() {
    return environment.get("TIDINGS_DB_URL");
  }

  public void drop() throws SQLException {
    RealServers.dropDatabase(database);
  }
}
