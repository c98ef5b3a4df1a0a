package dev.tidings.storage;

import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import java.util.Optional;

/** Where a {@link Database} connects and how big its pool is. */
public record ConnectionSpec(
    String jdbcUrl, Optional<String> user, Optional<String> password, String schema, int poolSize) {

  public static final String DEFAULT_SCHEMA = "public";

  public static ConnectionSpec from(Settings settings, String jdbcUrl) {
    return new ConnectionSpec(
        jdbcUrl,
        settings.dbUser(),
        settings.dbPassword().map(Secret::value),
        DEFAULT_SCHEMA,
        settings.dbPoolSize());
  }

  public ConnectionSpec withSchema(String otherSchema) {
    return new ConnectionSpec(jdbcUrl, user, password, otherSchema, poolSize);
  }

  public String describe() {
    return jdbcUrl.replaceAll("(?i)(password=)[^&]*", "$1<masked>") + " (schema " + schema + ")";
  }
}
