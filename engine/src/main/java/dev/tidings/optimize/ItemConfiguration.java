package dev.tidings.optimize;

import dev.tidings.optimize.stats.Proportion;
import java.util.Map;

/**
 * One way of showing an item: free {@code attributes} (image, title, price display, position), whether it is
 * the item's {@code current} configuration, and the impressions and conversions counted for it.
 */
public record ItemConfiguration(
    String itemId,
    String configurationId,
    Map<String, String> attributes,
    boolean current,
    long impressions,
    long conversions) {
  public ItemConfiguration {
    attributes = Map.copyOf(attributes);
  }

  /** Conversions out of impressions; see {@link Arm#counted}. */
  public Proportion counts() {
    return Arm.counted(impressions, conversions);
  }
}
