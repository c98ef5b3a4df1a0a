package dev.tidings.recommend.evaluation;

/**
 * The same list for everybody: items by how many baskets held them, each basket weighted by its age so
 * that last season's hits fade. The baseline every other algorithm must beat.
 */
public record Popularity(double halfLifeDays) implements Algorithm {
  @Override
  public String name() {
    return "popularity";
  }

  @Override
  public Model fit(Interactions training) {
    double[] popularity = new double[training.itemCount()];
    long now = training.lastEpochSecond();
    for (int row = 0; row < training.size(); row++) {
      popularity[training.item(row)] +=
          Algorithm.decay(now - training.epochSecond(row), halfLifeDays);
    }
    return (user, scores) -> System.arraycopy(popularity, 0, scores, 0, popularity.length);
  }
}
