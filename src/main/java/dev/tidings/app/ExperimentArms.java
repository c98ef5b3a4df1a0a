package dev.tidings.app;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.CacheClock;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.Experiment;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommender;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.recommend.blend.LiveRecommender;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The open-time slots' recommender when a campaign's experiment has recommendation arms: the slots of an
 * email of such a variant blend only that variant's algorithms (algorithm A against B, measured on the
 * human clicks of its emails). Every other request goes to the blend as configured. A campaign's arms
 * are re-read at most every {@link #RECHECK}; the email's variant is one indexed read, made only for
 * campaigns with arms, once per email (open-time slots are computed once).
 */
final class ExperimentArms implements Recommender {
  static final Duration RECHECK = Duration.ofSeconds(10);

  /** The blend, whole or restricted to some algorithms ({@link LiveRecommender} is one). */
  interface Blend extends Recommender {
    Recommendations recommend(RecommendationRequest request, Set<Algorithm> only);

    static Blend of(LiveRecommender live) {
      return new Blend() {
        @Override
        public Recommendations recommend(RecommendationRequest request) {
          return live.recommend(request);
        }

        @Override
        public Recommendations recommend(RecommendationRequest request, Set<Algorithm> only) {
          return live.recommend(request, only);
        }
      };
    }
  }

  private final Blend blend;
  private final Supplier<CampaignService> campaigns;
  private final CampaignExperiments experiments;
  private final Cache<Long, List<Set<Algorithm>>> arms;

  ExperimentArms(
      Blend blend,
      Supplier<CampaignService> campaigns,
      CampaignExperiments experiments,
      InstantSource clock) {
    this.blend = blend;
    this.campaigns = campaigns;
    this.experiments = experiments;
    this.arms = Caffeine.newBuilder()
        .maximumSize(10_000)
        .expireAfterWrite(RECHECK)
        .ticker(CacheClock.of(clock))
        .build();
  }

  @Override
  public Recommendations recommend(RecommendationRequest request) {
    if (request.campaignId().isEmpty()) return blend.recommend(request);
    long campaign = request.campaignId().get();
    List<Set<Algorithm>> byVariant = armsOf(campaign);
    if (byVariant.isEmpty()) return blend.recommend(request);
    Optional<Set<Algorithm>> only = experiments
        .variantOf(campaign, request.subscriberId())
        .filter(variant -> variant < byVariant.size())
        .map(byVariant::get)
        .filter(algorithms -> !algorithms.isEmpty());
    return only.isPresent() ? blend.recommend(request, only.get()) : blend.recommend(request);
  }

  /** Each variant's algorithms, or none when the campaign's experiment has no recommendation arm. */
  private List<Set<Algorithm>> armsOf(long campaignId) {
    List<Set<Algorithm>> cached = arms.getIfPresent(campaignId);
    if (cached != null) return cached;
    List<Set<Algorithm>> fresh = campaigns
        .get()
        .get(campaignId)
        .map(Campaign::definition)
        .flatMap(definition -> definition.experiment())
        .map(experiment ->
            experiment.variants().stream().map(Experiment.Variant::algorithms).toList())
        .filter(variants -> variants.stream().anyMatch(algorithms -> !algorithms.isEmpty()))
        .orElse(List.of());
    arms.put(campaignId, fresh);
    return fresh;
  }
}
