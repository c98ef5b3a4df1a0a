package dev.tidings.audience;

import dev.tidings.InvalidInputException;

/** The bound on one page of a list, the same for every audience list. */
final class PageLimit {
  static final int MAX = 1000;

  private PageLimit() {}

  static void check(int limit) {
    if (limit < 1 || limit > MAX)
      throw new InvalidInputException("limit must be 1.." + MAX + ", got " + limit);
  }
}
