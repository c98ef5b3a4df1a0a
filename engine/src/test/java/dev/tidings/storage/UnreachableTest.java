package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

class UnreachableTest {
  @Test
  void connection_failures_anywhere_in_the_chain_are_an_unreachable_database() {
    assertThat(Unreachable.database(new IllegalStateException(
            new SQLTransientConnectionException("pool: connection is not available"))))
        .isTrue();
    assertThat(Unreachable.database(
            new UnableToExecuteStatementException(new SQLException("I/O error", "08006"), null)))
        .isTrue();
    assertThat(
            Unreachable.database(new SQLException("the database system is shutting down", "57P03")))
        .isTrue();
    assertThat(Unreachable.database(new RuntimeException(new ConnectException("refused"))))
        .isTrue();
  }

  @Test
  void a_statement_that_failed_on_its_own_merits_is_not() {
    assertThat(Unreachable.database(new UnableToExecuteStatementException(
            new SQLException("duplicate key", "23505"), null)))
        .isFalse();
    assertThat(Unreachable.database(new IllegalArgumentException("bad receipt")))
        .isFalse();
  }
}
