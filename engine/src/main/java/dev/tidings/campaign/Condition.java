package dev.tidings.campaign;

import dev.tidings.audience.TargetType;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One condition of a {@link Audience.Segment}. Each reads one table (see {@link AudienceQuery}):
 * subscriber fields and location read {@code subscribers}, follows read {@code follows}, opens read
 * {@code message_slots} and {@code activity_events} (by campaign or within N days), clicks read {@code activity_events}.
 */
public sealed interface Condition {
  /** A subscriber field has one of the values (compared case-insensitively). */
  record FieldIn(Field field, List<String> values) implements Condition {
    public FieldIn {
      Objects.requireNonNull(field, "field");
      values = List.copyOf(values);
    }
  }

  /** The subscriber's locale has one of these languages ({@code de} matches {@code de-AT}) or exact tags. */
  record LocaleIn(List<String> locales) implements Condition {
    public LocaleIn {
      locales = locales.stream().map(l -> l.toLowerCase(Locale.ROOT)).toList();
    }
  }

  /** The subscriber's point lies within {@code radiusKm} of the given point (great-circle distance). */
  record Near(double latitude, double longitude, double radiusKm) implements Condition {}

  /** The subscriber follows the entity. */
  record Follows(TargetType targetType, String targetId) implements Condition {
    public Follows {
      Objects.requireNonNull(targetType, "targetType");
      Objects.requireNonNull(targetId, "targetId");
    }
  }

  /** The subscriber opened ({@code opened = true}) or did not open an email of campaign {@code campaignId}. */
  record OpenedCampaign(long campaignId, boolean opened) implements Condition {}

  /** Was (or was not) sent one of the variants of campaign X's experiment: a rollout's audience. */
  record InExperiment(long campaignId, boolean in) implements Condition {}

  /** The subscriber clicked a link in an email within the last {@code days} days. */
  record ClickedWithin(int days) implements Condition {}

  /**
   * The subscriber opened an email of any campaign within the last {@code days} days, read as {@link
   * OpenedCampaign} reads an open: the email's products were shown, or an open was recorded.
   */
  record OpenedWithin(int days) implements Condition {}

  /** The subscriber fields a {@link FieldIn} may name, each with its column. */
  enum Field {
    COUNTRY("country", "country"),
    CITY("city", "city"),
    TIME_ZONE("timeZone", "time_zone");

    private final String wire;
    private final String column;

    Field(String wire, String column) {
      this.wire = wire;
      this.column = column;
    }

    public String wire() {
      return wire;
    }

    String column() {
      return column;
    }

    public static Optional<Field> ofWire(String text) {
      for (Field field : values()) if (field.wire.equals(text)) return Optional.of(field);
      return Optional.empty();
    }
  }
}
