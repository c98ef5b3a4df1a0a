package dev.tidings.imports;

/**
 * Turns one row's raw fields into a domain record, the one path shared by CSV, JSON Lines and the
 * JSON API. Throws {@link dev.tidings.InvalidInputException} listing every problem of the row.
 */
public interface RowMapper<T> {
  RowSchema schema();

  T map(RowFields row);
}
