package dev.tidings.recommend.blend;

import java.util.HashMap;
import java.util.List;

/**
 * Recently viewed but not bought: the products the user viewed, clicked or carted in the last days
 * (each day's events halved per half-life of age) and never bought.
 */
final class RecentlyViewed implements CandidateSource {
  @Override
  public Algorithm algorithm() {
    return Algorithm.RECENTLY_VIEWED;
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    UserSignals user = context.user();
    int days = (int) settings.param(algorithm(), "days");
    double halfLife = settings.param(algorithm(), "halfLifeDays");
    var scores = new HashMap<String, Double>();
    user.views().forEach((item, periods) -> {
      if (!user.bought(item)) scores.put(item, periods.decayedDays(user.today(), days, halfLife));
    });
    return Scored.top(scores, n);
  }
}
