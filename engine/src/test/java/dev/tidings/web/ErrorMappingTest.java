package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.ErrorKind;
import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.TidingsException;
import dev.tidings.activity.aggregate.KeyProblem;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.delivery.webhook.WebhookRefused;
import dev.tidings.queue.QueueUnavailableException;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.jdbi.v3.core.ConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Each kind of failure has one answer; a dependency that is down is a 503 wherever it shows. */
class ErrorMappingTest {
  private static final String REFERENCE = "ref-1";

  private static TidingsException ofKind(ErrorKind kind, String message) {
    return new TidingsException(message) {
      @Override
      public ErrorKind kind() {
        return kind;
      }
    };
  }

  @ParameterizedTest
  @CsvSource({
    "NOT_FOUND, 404, not_found",
    "CONFLICT, 409, conflict",
    "INVALID, 422, invalid",
    "UNAVAILABLE, 503, unavailable",
    "UNAUTHENTICATED, 401, unauthorized",
    "FORBIDDEN, 403, forbidden",
    "INTERNAL, 500, internal"
  })
  void each_kind_answers_with_its_one_status(ErrorKind kind, int status, String error) {
    var problem = ErrorMapping.problem(ofKind(kind, "what is wrong"), REFERENCE);

    assertThat(problem.status()).isEqualTo(status);
    assertThat(problem.error()).isEqualTo(error);
    assertThat(KindStatus.of(kind)).as("the dashboard's status for the kind").isEqualTo(status);
  }

  @Test
  void an_invalid_input_names_its_field_beside_error_and_detail() {
    var one = ErrorMapping.body(
        ErrorMapping.problem(new InvalidInputException(Problem.missing("from")), REFERENCE));
    assertThat(one.path("error").asString()).isEqualTo("invalid");
    assertThat(one.path("detail").asString()).isEqualTo("missing required field 'from'");
    assertThat(one.path("field").asString()).isEqualTo("from");
    assertThat(one.has("problems")).as("one problem is the detail alone").isFalse();

    var several = ErrorMapping.body(ErrorMapping.problem(
        InvalidInputException.of(List.of(
            Problem.of("a campaign has no field 'colour'"),
            Problem.range("audience.conditions[2].days", "days must be within 1..3650"))),
        REFERENCE));
    assertThat(several.path("field").asString())
        .as("the first problem that names a field")
        .isEqualTo("audience.conditions[2].days");
    assertThat(several.path("problems").get(0).has("field")).isFalse();
    assertThat(several.path("problems").get(1).path("field").asString())
        .isEqualTo("audience.conditions[2].days");
    assertThat(several.path("problems").get(1).path("detail").asString())
        .isEqualTo("days must be within 1..3650");

    var whole =
        ErrorMapping.body(ErrorMapping.problem(ofKind(ErrorKind.CONFLICT, "runs"), REFERENCE));
    assertThat(whole.has("field")).isFalse();
  }

  @Test
  void a_kind_the_caller_can_act_on_shows_its_detail_and_an_internal_failure_does_not() {
    assertThat(ErrorMapping.problem(ofKind(ErrorKind.CONFLICT, "the campaign runs"), REFERENCE)
            .detail())
        .isEqualTo("the campaign runs");
    assertThat(ErrorMapping.problem(ofKind(ErrorKind.INTERNAL, "relation x is missing"), REFERENCE)
            .detail())
        .doesNotContain("relation")
        .contains(REFERENCE);
  }

  @Test
  void unavailable_answers_carry_retry_after_and_unauthenticated_ones_www_authenticate() {
    var unavailable = ErrorMapping.problem(ofKind(ErrorKind.UNAVAILABLE, "x"), REFERENCE);
    var unauthenticated = ErrorMapping.problem(ofKind(ErrorKind.UNAUTHENTICATED, "x"), REFERENCE);
    var notFound = ErrorMapping.problem(ofKind(ErrorKind.NOT_FOUND, "x"), REFERENCE);

    assertThat(ErrorMapping.headers(unavailable))
        .containsEntry(HeaderNames.RETRY_AFTER, ErrorMapping.RETRY_AFTER_SECONDS);
    assertThat(ErrorMapping.headers(unauthenticated))
        .containsEntry(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"tidings\"");
    assertThat(ErrorMapping.headers(notFound)).isEmpty();
  }

  @Test
  void the_domain_exceptions_say_their_kind() {
    var invalid = ErrorMapping.problem(
        new InvalidInputException(List.of("name is required", "slots must be 1-12")), REFERENCE);
    assertThat(invalid.status()).isEqualTo(422);
    assertThat(invalid.detail()).isEqualTo("name is required; slots must be 1-12");

    assertThat(ErrorMapping.problem(new KeyProblem("segment 1 has no type tag"), REFERENCE)
            .status())
        .as("a key off the grammar is input that breaks a rule")
        .isEqualTo(422);
    assertThat(ErrorMapping.problem(WebhookRefused.malformed("not JSON"), REFERENCE)
            .status())
        .as("a webhook body a provider sent wrong is answered as any other input")
        .isEqualTo(422);

    assertThat(ErrorMapping.problem(WebhookRefused.unauthenticated("no signature"), REFERENCE)
            .status())
        .isEqualTo(401);
    assertThat(
            ErrorMapping.problem(WebhookRefused.forbidden("stale"), REFERENCE).status())
        .isEqualTo(403);
    assertThat(ErrorMapping.problem(new QueueUnavailableException("confirm timed out"), REFERENCE)
            .status())
        .isEqualTo(503);
  }

  @Test
  void an_unavailable_dependency_is_named_in_words_never_by_its_address() {
    var redis = ErrorMapping.problem(
        new CoordinationException(
            "cannot use the Redis URL redis://:hunter2@cache.internal:6379: refused"),
        REFERENCE);
    var queue = ErrorMapping.problem(
        new QueueUnavailableException("amqp://tidings:hunter2@mq.internal:5672 closed"), REFERENCE);

    assertThat(redis.status()).isEqualTo(503);
    assertThat(redis.detail()).contains("Redis").doesNotContain("hunter2", "cache.internal");
    assertThat(queue.detail())
        .contains("queue")
        .contains(REFERENCE)
        .doesNotContain("hunter2", "mq.internal");
  }

  @Test
  void a_database_outage_anywhere_in_the_cause_chain_is_503_naming_the_database() {
    List<Throwable> outages = List.of(
        // JDBI could not open a handle
        new RuntimeException(
            "reading product p-1",
            new ConnectionException(
                new SQLException("Connection to db.internal:5432 refused", "08001"))),
        // the pool gave no connection in time
        new TidingsException(
            "import failed",
            new SQLTransientConnectionException(
                "tidings-db - Connection is not available, request timed out after 1500ms")),
        // the server was shut down or crashed under a running statement
        new RuntimeException(new RuntimeException(
            new SQLException("terminating connection due to administrator command", "57P01"))),
        new RuntimeException(new SQLException("crash shutdown", "57P02")),
        new RuntimeException(new SQLException("the database system is starting up", "57P03")),
        new RuntimeException(new SQLException("An I/O error occurred", "08006")));

    for (Throwable outage : outages) {
      var problem = ErrorMapping.problem(outage, REFERENCE);
      assertThat(problem.status()).as(outage.toString()).isEqualTo(503);
      assertThat(problem.detail())
          .startsWith("the database is unavailable")
          .contains(REFERENCE)
          .doesNotContain("db.internal", "5432");
      assertThat(ErrorMapping.headers(problem)).containsKey(HeaderNames.RETRY_AFTER);
    }
  }

  @Test
  void a_transaction_rolled_back_to_break_a_deadlock_is_503_to_try_again_not_500() {
    for (String state : List.of("40P01", "40001")) {
      var problem = ErrorMapping.problem(
          new RuntimeException(
              "importing content", new SQLException("ERROR: deadlock detected", state)),
          REFERENCE);
      assertThat(problem.status()).as(state).isEqualTo(503);
      assertThat(problem.detail()).contains("nothing of it was written").contains(REFERENCE);
      assertThat(ErrorMapping.headers(problem)).containsKey(HeaderNames.RETRY_AFTER);
    }
  }

  @Test
  void redis_down_behind_a_wrapper_is_still_503() {
    var problem = ErrorMapping.problem(
        new CompletionException(new CoordinationException("Redis failed to lock: timeout")),
        REFERENCE);

    assertThat(problem.status()).isEqualTo(503);
    assertThat(ErrorMapping.headers(problem)).containsKey(HeaderNames.RETRY_AFTER);
  }

  @Test
  void a_database_link_cut_mid_request_is_an_outage_not_the_client_going_away() {
    var cut = new SQLException(
        "An I/O error occurred while sending to the backend.",
        "08006",
        new SocketException("Connection reset"));

    assertThat(ClientGone.causedBy(cut)).isFalse();
    assertThat(ErrorMapping.problem(new IllegalStateException(cut), REFERENCE).status())
        .isEqualTo(503);
    assertThat(ClientGone.causedBy(new UncheckedIOException(
            new IOException(new DataReader.InsufficientDataAvailableException()))))
        .isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"23505", "42P01", "57014", "57P04", "22021"})
  void other_database_failures_are_ours_and_answer_500(String state) {
    var problem = ErrorMapping.problem(
        new RuntimeException(new SQLException("failed at db.internal", state)), REFERENCE);

    assertThat(problem.status()).isEqualTo(500);
    assertThat(problem.detail()).contains(REFERENCE).doesNotContain("db.internal");
    assertThat(ErrorMapping.headers(problem)).isEmpty();
  }

  @Test
  void a_problem_a_route_chose_is_answered_as_it_is() {
    var chosen = ApiProblem.badRequest("minutes must be a whole number");

    assertThat(ErrorMapping.problem(chosen, REFERENCE)).isSameAs(chosen);
  }
}
