package dev.tidings.recommend;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * @param subscriberId whom the products are for
 * @param k how many, 1..{@link #MAX_K}
 * @param exclude product ids never to return (shown in the subscriber's recent emails, say)
 * @param campaignId the campaign asking, when one is
 * @param locale the subscriber's locale
 * @param deadline when the caller needs the answer; an implementation answers with what it has by then
 * @param arm the experiment arm the asking email's slots belong to, as its token carries it (0: none);
 *     a recommender that blends algorithms reads it as the set it may blend, others ignore it
 */
public record RecommendationRequest(
    String subscriberId,
    int k,
    Set<String> exclude,
    Optional<Long> campaignId,
    Locale locale,
    Instant deadline,
    int arm) {
  /** Open-time slots ask for a dozen at most; the API's lists go to 50. */
  public static final int MAX_K = 50;

  /** A request from no experiment arm. */
  public RecommendationRequest(
      String subscriberId,
      int k,
      Set<String> exclude,
      Optional<Long> campaignId,
      Locale locale,
      Instant deadline) {
    this(subscriberId, k, exclude, campaignId, locale, deadline, 0);
  }

  public RecommendationRequest {
    Objects.requireNonNull(subscriberId, "subscriberId");
    Objects.requireNonNull(campaignId, "campaignId");
    Objects.requireNonNull(locale, "locale");
    Objects.requireNonNull(deadline, "deadline");
    exclude = Set.copyOf(exclude);
    if (k < 1 || k > MAX_K)
      throw new IllegalArgumentException("k must be within 1.." + MAX_K + " but was " + k);
  }
}
