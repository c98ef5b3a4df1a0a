package dev.tidings.optimize;

import dev.tidings.InvalidInputException;
import dev.tidings.Problems;

/** Impressions and conversions to add to one configuration's counts. */
public record CountDelta(
    String itemId, String configurationId, long impressions, long conversions) {
  public CountDelta {
    if (!Problems.isId(itemId))
      throw new InvalidInputException(Ids.ITEM_RULE + ", got " + Problems.quote(itemId));
    if (!Problems.isId(configurationId))
      throw new InvalidInputException(
          Ids.CONFIGURATION_RULE + ", got " + Problems.quote(configurationId));
    if (impressions < 0 || conversions < 0)
      throw new InvalidInputException("impressions and conversions must be 0 or more, got %d and %d"
          .formatted(impressions, conversions));
    if (impressions == 0 && conversions == 0)
      throw new InvalidInputException("a count needs impressions or conversions above 0");
  }
}
