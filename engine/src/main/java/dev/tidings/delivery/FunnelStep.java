package dev.tidings.delivery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the funnel counts once per message: every status (with the statuses it implies), and whether a
 * person, not a proxy or scanner, opened or clicked. The code is what the tables store.
 */
public enum FunnelStep {
  QUEUED(DeliveryStatus.QUEUED),
  IN_GATEWAY(DeliveryStatus.IN_GATEWAY),
  DEFERRED(DeliveryStatus.DEFERRED),
  SENT(DeliveryStatus.SENT),
  DROPPED(DeliveryStatus.DROPPED),
  BOUNCED(DeliveryStatus.BOUNCED),
  DELIVERED(DeliveryStatus.DELIVERED),
  OPENED(DeliveryStatus.OPENED),
  CLICKED(DeliveryStatus.CLICKED),
  UNSUBSCRIBED(DeliveryStatus.UNSUBSCRIBED),
  COMPLAINED(DeliveryStatus.COMPLAINED),
  HUMAN_OPENED(61),
  HUMAN_CLICKED(71);

  private final int code;
  private final Optional<DeliveryStatus> status;

  FunnelStep(DeliveryStatus status) {
    this.code = status.priority();
    this.status = Optional.of(status);
  }

  FunnelStep(int code) {
    this.code = code;
    this.status = Optional.empty();
  }

  public int code() {
    return code;
  }

  /** The API's name: camel case, {@code humanOpened} for HUMAN_OPENED. */
  public String wire() {
    String[] words = name().toLowerCase(Locale.ROOT).split("_");
    var name = new StringBuilder(words[0]);
    for (int i = 1; i < words.length; i++)
      name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
    return name.toString();
  }

  public static FunnelStep of(DeliveryStatus status) {
    return valueOf(status.name());
  }

  public static Optional<FunnelStep> ofCode(int code) {
    for (FunnelStep step : values()) if (step.code == code) return Optional.of(step);
    return Optional.empty();
  }

  private static final Map<Integer, Set<FunnelStep>> IMPLIED_BY_PRIORITY = new HashMap<>();

  static {
    for (DeliveryStatus status : DeliveryStatus.values())
      IMPLIED_BY_PRIORITY.put(
          status.priority(), Collections.unmodifiableSet(EnumSet.copyOf(implied(status, false))));
  }

  /**
   * The status steps a message whose current status has {@code priority} has reached (empty when the
   * message's status is not known): not the human steps, which no status implies.
   */
  public static Set<FunnelStep> impliedBy(@Nullable Integer priority) {
    if (priority == null) return Set.of();
    return IMPLIED_BY_PRIORITY.getOrDefault(priority, Set.of());
  }

  public Optional<DeliveryStatus> status() {
    return status;
  }

  /**
   * The steps a receipt of {@code status} stands for: the status and every status it implies (CLICKED
   * implies OPENED implies DELIVERED implies SENT ...), plus the human step when a person did it.
   */
  public static List<FunnelStep> implied(DeliveryStatus status, boolean human) {
    List<FunnelStep> steps = new ArrayList<>();
    for (Optional<DeliveryStatus> s = Optional.of(status);
        s.isPresent();
        s = s.get().parent()) steps.add(of(s.get()));
    if (human && status == DeliveryStatus.CLICKED) steps.add(HUMAN_CLICKED);
    if (human && (status == DeliveryStatus.OPENED || status == DeliveryStatus.CLICKED))
      steps.add(HUMAN_OPENED);
    return steps;
  }
}
