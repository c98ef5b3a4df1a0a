package dev.tidings;

/** The bound on one page of any list: the API's {@code ?limit=} and every service's list method. */
public final class PageLimit {
  public static final int MAX = 1000;

  private PageLimit() {}

  /** @throws InvalidInputException unless {@code limit} is within 1..{@link #MAX} */
  public static void check(int limit) {
    if (limit < 1 || limit > MAX)
      throw new InvalidInputException("limit must be 1.." + MAX + ", got " + limit);
  }
}
