package dev.tidings.recommend;

/**
 * Chooses products for one subscriber. Thread-safe; one instance serves a node. Implementations return
 * at most {@code k} distinct, available products, none of {@code exclude}, best first, and fewer only
 * when the catalog cannot fill {@code k}; they return what they have by the request's deadline rather
 * than fail it.
 */
@FunctionalInterface
public interface Recommender {
  Recommendations recommend(RecommendationRequest request);
}
