package dev.tidings.optimize;

import dev.tidings.InvalidInputException;
import dev.tidings.Problems;

/** The id rules of items and configurations, said once. */
public final class Ids {
  public static final String ITEM_RULE = "an item id is 1-64 characters of A-Z a-z 0-9 . _ : -";
  public static final String CONFIGURATION_RULE =
      "a configuration id is 1-64 characters of A-Z a-z 0-9 . _ : -";

  private Ids() {}

  public static String item(String id) {
    if (!Problems.isId(id))
      throw new InvalidInputException(ITEM_RULE + ", got " + Problems.quote(id));
    return id;
  }

  public static String configuration(String id) {
    if (!Problems.isId(id))
      throw new InvalidInputException(CONFIGURATION_RULE + ", got " + Problems.quote(id));
    return id;
  }
}
