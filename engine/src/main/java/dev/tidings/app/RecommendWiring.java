package dev.tidings.app;

import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.recommend.RecommendRoutes;
import java.time.Duration;
import java.util.List;

/**
 * Recommendations: the blended recommender on the node's database (its settings, the aggregates, the
 * catalogue and follows), built on first use with its background refreshes, for the API and the
 * open-time slots alike.
 */
public final class RecommendWiring implements Capability {
  /** How long an API answer may take to compute: the open-time slots ask with their own deadline. */
  private static final Duration API_DEADLINE = Duration.ofMillis(250);

  private final Infrastructure infrastructure;
  private final Lazy<LiveRecommender> recommender;

  RecommendWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.recommender = Lazy.of(() -> LiveRecommender.of(
        infrastructure.database(),
        infrastructure.readDatabase(),
        infrastructure.clock(),
        LiveRecommender.Options.defaults(),
        infrastructure.metrics(),
        infrastructure.settings().recommendWarmEntries()));
  }

  public LiveRecommender recommender() {
    return recommender.get();
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new RecommendRoutes(
        recommender(),
        infrastructure.clock(),
        API_DEADLINE,
        infrastructure.settings().maxBodyBytes()));
  }

  @Override
  public void close() {
    recommender.ifBuilt().ifPresent(LiveRecommender::close);
  }
}
