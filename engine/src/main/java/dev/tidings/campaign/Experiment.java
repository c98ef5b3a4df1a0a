package dev.tidings.campaign;

import dev.tidings.recommend.blend.Algorithm;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A campaign that tests variants of itself (subject line, template) on one metric. Variant 0 is the
 * control: its absent fields are the campaign's own, and so are any variant's.
 *
 * <ul>
 *   <li>{@link Allocation#AB}: a test cohort ({@code testShare} of the audience, chosen by a hash of the
 *       subscriber) is split evenly among the variants; the rest is held back for the winner, sent by
 *       a rollout once the test has decided.
 *   <li>{@link Allocation#BANDIT}: every recipient is in the test; each email's variant is drawn by
 *       Thompson sampling from the results so far, so better variants get more of the audience as the
 *       run goes on.
 * </ul>
 *
 * Decisions come from a sequential test that stays valid however often results are looked at, with
 * the level {@code alpha} split among the challengers (Bonferroni).
 */
public record Experiment(
    Allocation allocation, Metric metric, List<Variant> variants, double testShare, double alpha) {
  public static final int MAX_VARIANTS = 5;
  public static final double DEFAULT_TEST_SHARE = 0.2;
  public static final double DEFAULT_ALPHA = 0.05;

  public enum Allocation {
    AB,
    BANDIT;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What counts as a conversion: a person opening the email, or a person clicking in it. */
  public enum Metric {
    HUMAN_OPEN,
    HUMAN_CLICK;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One variant: what it changes of the campaign (absent: the campaign's own). {@code algorithms}, when
   * not empty, are the only recommendation algorithms its open-time slots blend (an arm of algorithm A
   * against B); empty, the blend as configured.
   */
  public record Variant(
      String name,
      Optional<String> subject,
      Optional<String> html,
      Optional<String> text,
      Set<Algorithm> algorithms) {
    public Variant {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(html, "html");
      Objects.requireNonNull(text, "text");
      algorithms =
          algorithms.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(algorithms));
    }

    /** A variant of the campaign's content only. */
    public Variant(
        String name, Optional<String> subject, Optional<String> html, Optional<String> text) {
      this(name, subject, html, text, Set.of());
    }
  }

  public Experiment {
    Objects.requireNonNull(allocation, "allocation");
    Objects.requireNonNull(metric, "metric");
    variants = List.copyOf(variants);
    if (variants.size() < 2 || variants.size() > MAX_VARIANTS)
      throw new IllegalArgumentException(
          "experiment.variants must be 2 to " + MAX_VARIANTS + " variants");
    if (new HashSet<>(variants.stream().map(Variant::name).toList()).size() != variants.size())
      throw new IllegalArgumentException("experiment.variants must have distinct names");
    if (!(testShare > 0 && testShare <= 1))
      throw new IllegalArgumentException("experiment.testShare must be within (0, 1]");
    if (!(alpha > 0 && alpha <= 0.2))
      throw new IllegalArgumentException("experiment.alpha must be within (0, 0.2]");
  }
}
