package dev.tidings.recommend.evaluation;

/**
 * The user's own purchases again: each earlier basket that held an item adds its recency weight, so an
 * item bought often and lately comes first. Strong wherever customers restock (this data's wholesalers);
 * it can never suggest anything new, so it has no place when bought items are excluded.
 */
public record BuyAgain(double halfLifeDays) implements Algorithm {
  @Override
  public String name() {
    return "buy-again";
  }

  @Override
  public Model fit(Interactions training) {
    int users = training.userCount();
    int[] offsets = new int[users + 1];
    for (int row = 0; row < training.size(); row++) offsets[training.user(row) + 1]++;
    for (int user = 0; user < users; user++) offsets[user + 1] += offsets[user];
    int[] cursor = offsets.clone();
    int[] items = new int[training.size()];
    double[] weights = new double[training.size()];
    long now = training.lastEpochSecond();
    for (int row = 0; row < training.size(); row++) {
      int at = cursor[training.user(row)]++;
      items[at] = training.item(row);
      weights[at] = Algorithm.decay(now - training.epochSecond(row), halfLifeDays);
    }
    return (user, scores) -> {
      for (int at = offsets[user]; at < offsets[user + 1]; at++) {
        int item = items[at];
        scores[item] = (scores[item] == Double.NEGATIVE_INFINITY ? 0 : scores[item]) + weights[at];
      }
    };
  }
}
