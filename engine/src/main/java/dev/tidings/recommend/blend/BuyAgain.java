package dev.tidings.recommend.blend;

import java.time.YearMonth;
import java.util.HashMap;
import java.util.List;

/**
 * Buy again: the user's own purchases, each month's quantity halved per half-life of age (recent
 * first), times a bonus per further month the item was bought in (repeat purchases first: what a
 * replenishment shop sells). Offline, on real purchases, this alone beat every other algorithm
 * (docs/recommendation-quality.md).
 */
final class BuyAgain implements CandidateSource {
  @Override
  public Algorithm algorithm() {
    return Algorithm.BUY_AGAIN;
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    UserSignals user = context.user();
    double halfLife = settings.param(algorithm(), "halfLifeMonths");
    double repeatBonus = settings.param(algorithm(), "repeatBonus");
    YearMonth current = YearMonth.from(user.today());
    var scores = new HashMap<String, Double>();
    user.purchases().forEach((item, periods) -> {
      int repeats = Math.max(0, periods.distinctMonths() - 1);
      scores.put(item, periods.decayedMonths(current, halfLife) * (1 + repeatBonus * repeats));
    });
    return Scored.top(scores, n);
  }
}
