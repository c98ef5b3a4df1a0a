package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.ConfigException;
import dev.tidings.config.SettingsLoader;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectionSpecTest {
  private static ConnectionSpec spec(String url) {
    return new ConnectionSpec(url, Optional.empty(), Optional.empty(), "public", 4);
  }

  @Test
  void several_hosts_get_the_roles_server_type_and_every_url_the_driver_defaults() {
    var pair = spec("jdbc:postgresql://pg1:5433,pg2/tidings?user=app");
    assertThat(pair.hosts()).containsExactly("pg1:5433", "pg2:5432");
    assertThat(pair.pooledUrl(ConnectionSpec.Role.PRIMARY))
        .isEqualTo(
            "jdbc:postgresql://pg1:5433,pg2/tidings?user=app&connectTimeout=5&loginTimeout=10"
                + "&socketTimeout=30&tcpKeepAlive=true&hostRecheckSeconds=2&targetServerType=primary");
    assertThat(pair.pooledUrl(ConnectionSpec.Role.READ))
        .endsWith("targetServerType=preferSecondary");
    assertThat(pair.unboundedUrl(ConnectionSpec.Role.PRIMARY)).contains("socketTimeout=0");
    assertThat(spec("jdbc:postgresql://one/db").pooledUrl(ConnectionSpec.Role.PRIMARY))
        .startsWith("jdbc:postgresql://one/db?connectTimeout=5")
        .doesNotContain("targetServerType");
  }

  @Test
  void what_the_url_sets_itself_is_kept() {
    var url = "jdbc:postgresql://a,b/db?targetServerType=any&SOCKETTIMEOUT=0&connectTimeout=2";
    String pooled = spec(url).pooledUrl(ConnectionSpec.Role.PRIMARY);
    assertThat(pooled).startsWith(url).doesNotContain("targetServerType=primary");
    assertThat(pooled.split("connectTimeout", -1)).hasSize(2);
    assertThat(pooled.toLowerCase(Locale.ROOT).split("sockettimeout", -1)).hasSize(2);
  }

  @Test
  void the_description_masks_passwords_of_every_form() {
    assertThat(spec("jdbc:postgresql://u:s3cret@a:1,b:2/db?password=s3cret&x=1").describe())
        .doesNotContain("s3cret")
        .contains("a:1,b:2/db");
  }

  @Test
  void a_host_list_that_cannot_be_right_is_refused_naming_the_setting() {
    for (String bad : new String[] {
      "jdbc:postgresql://a:1,,b:2/db", "jdbc:postgresql://a:70000/db", "jdbc:postgresql://a:1,b:2"
    }) {
      try {
        SettingsLoader.load(Map.of("TIDINGS_DB_URL", bad));
        throw new AssertionError("accepted " + bad);
      } catch (ConfigException e) {
        assertThat(e.getMessage()).contains("TIDINGS_DB_URL");
      }
    }
    var loaded = SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL", "postgresql://a:5432,[::1]:5433/db",
        "TIDINGS_DB_READ_URL", "jdbc:postgresql://b:5432/db"));
    assertThat(loaded.dbUrl()).contains("jdbc:postgresql://a:5432,[::1]:5433/db");
    assertThat(loaded.dbReadUrl()).contains("jdbc:postgresql://b:5432/db");
  }

  @Test
  void a_read_url_without_a_database_url_is_refused() {
    try {
      SettingsLoader.load(Map.of("TIDINGS_DB_READ_URL", "jdbc:postgresql://b:5432/db"));
      throw new AssertionError("accepted a read URL beside the embedded database");
    } catch (ConfigException e) {
      assertThat(e.getMessage()).contains("TIDINGS_DB_READ_URL");
    }
  }
}
