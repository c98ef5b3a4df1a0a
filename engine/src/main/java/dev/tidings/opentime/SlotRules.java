package dev.tidings.opentime;

import dev.tidings.message.MessageId;
import java.util.List;
import java.util.Set;

/**
 * What else decides an email's slots besides the recommender, answered by the capabilities that wrote the
 * email and own its products: what the email shows already, whatever put it there (a digest's items,
 * products its template names), and which candidates its slots may show (the same product only once, only
 * products sold in the subscriber's market).
 */
public interface SlotRules {
  /** No other rules: the slots show the recommender's products as they come. */
  SlotRules NONE = new SlotRules() {
    @Override
    public Set<String> alreadyShown(MessageId message) {
      return Set.of();
    }

    @Override
    public List<String> admissible(MessageId message, List<String> candidates, Set<String> shown) {
      return candidates;
    }
  };

  /**
   * How many candidates to ask the recommender for to fill {@code slots} after {@link #admissible} drops
   * some (what the recommender excludes itself needs no extra).
   */
  default int candidates(int slots) {
    return slots;
  }

  /** Product ids the email shows outside its slots. */
  Set<String> alreadyShown(MessageId message);

  /**
   * Of the recommender's {@code candidates}, in their order, those the email's slots may show: none that is
   * the same product as one in {@code shown} or as an earlier candidate, and only what the subscriber can
   * buy.
   */
  List<String> admissible(MessageId message, List<String> candidates, Set<String> shown);
}
