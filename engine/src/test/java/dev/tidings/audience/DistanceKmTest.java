package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one great-circle distance ({@code tidings_distance_km}, migration V40) and the fragments that
 * use it: two almost antipodal positions whose haversine term rounds above 1, which the formula without
 * the clamp (as notify once had its own) turns into an error of the whole statement.
 */
@StartsServers
class DistanceKmTest {
  // found by search: the haversine term of these two is 1.0000000000000004, its square root above 1
  private static final double LAT_A = -63.520047426508185;
  private static final double LON_A = -88.7903523008723;
  private static final double LAT_B = 63.520047723888474;
  private static final double LON_B = 91.20964746941607;
  private static final String UNCLAMPED = """
      SELECT 2 * 6371 * asin(sqrt(
               power(sin(radians(:lat2 - :lat1) / 2), 2)
               + cos(radians(:lat1)) * cos(radians(:lat2))
                 * power(sin(radians(:lon2 - :lon1) / 2), 2)))""";

  private static Database database;

  @BeforeAll
  static void open() {
    database = TestDatabases.embedded();
  }

  @AfterAll
  static void close() {
    database.close();
  }

  @Test
  void
      almost_antipodal_points_are_half_the_circumference_apart_where_the_unclamped_formula_fails() {
    assertThatThrownBy(() -> database
            .jdbi()
            .withHandle(handle -> handle
                .createQuery(UNCLAMPED)
                .bind("lat1", LAT_A)
                .bind("lon1", LON_A)
                .bind("lat2", LAT_B)
                .bind("lon2", LON_B)
                .mapTo(Double.class)
                .one()))
        .isInstanceOf(UnableToExecuteStatementException.class)
        .hasMessageContaining("out of range");

    assertThat(distance(LAT_A, LON_A, LAT_B, LON_B)).isBetween(20_015.0, 20_015.1);
    assertThat(distance(LAT_B, LON_B, LAT_A, LON_A)).isBetween(20_015.0, 20_015.1);
  }

  @Test
  void the_distance_is_the_haversine_one_and_none_without_a_position() {
    assertThat(distance(48.2082, 16.3738, 47.0707, 15.4395))
        .isBetween(144.5, 144.6); // Vienna, Graz
    assertThat(distance(52.37, 4.89, 52.37, 4.89)).isZero();
    Double none = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT tidings_distance_km(NULL, 1, 2, 3)")
            .mapTo(Double.class)
            .one());
    assertThat(none).isNull();
  }

  @Test
  void a_segment_near_the_antipode_of_a_subscriber_counts_them_without_failing() {
    database
        .jdbi()
        .useHandle(handle ->
            handle.createUpdate("""
            INSERT INTO subscribers (id, email, latitude, longitude, created_at, updated_at)
            VALUES ('far-side', 'far-side@example.test', :lat, :lon, now(), now())""").bind("lat", LAT_A).bind("lon", LON_A).execute());
    long near = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count(*) FROM " + SubscriberSql.SUBSCRIBERS
                + " WHERE s.id = 'far-side' AND " + SubscriberSql.near("p_"))
            .bind("p_lat", LAT_B)
            .bind("p_lon", LON_B)
            .bind("p_km", 20_016.0)
            .mapTo(Long.class)
            .one());
    assertThat(near).isEqualTo(1);
  }

  private static double distance(double lat1, double lon1, double lat2, double lon2) {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT tidings_distance_km(:lat1, :lon1, :lat2, :lon2)")
            .bind("lat1", lat1)
            .bind("lon1", lon1)
            .bind("lat2", lat2)
            .bind("lon2", lon2)
            .mapTo(Double.class)
            .one());
  }
}
