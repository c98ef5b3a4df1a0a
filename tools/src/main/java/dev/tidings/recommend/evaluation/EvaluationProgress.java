package dev.tidings.recommend.evaluation;

/** Where an evaluation says how far a long step has got; the caller decides how to show it. */
@FunctionalInterface
public interface EvaluationProgress {
  /** {@code unit} is plural: "users", "algorithms". */
  Step start(String task, long total, String unit);

  /** One step's progress; closed when the step ends. */
  interface Step extends AutoCloseable {
    void stepTo(long done);

    @Override
    void close();
  }

  static EvaluationProgress silent() {
    return (task, total, unit) -> new Step() {
      @Override
      public void stepTo(long done) {}

      @Override
      public void close() {}
    };
  }
}
