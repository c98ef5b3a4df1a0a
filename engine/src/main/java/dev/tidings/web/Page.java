package dev.tidings.web;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a keyset-paginated list: {@code next} is the cursor to pass as {@code ?after=} for the
 * following page, absent on the last page.
 */
public record Page(List<?> items, Optional<String> next) {
  public static <T> Page of(
      List<T> rows, int limit, Function<T, ?> toJson, Function<T, String> key) {
    Optional<String> next = rows.size() == limit && !rows.isEmpty()
        ? Optional.of(key.apply(rows.getLast()))
        : Optional.empty();
    return new Page(rows.stream().map(toJson).toList(), next);
  }
}
