package dev.tidings.activity.aggregate;

import dev.tidings.Problems;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.EventType;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One declared aggregation, stored as data beside the algorithms' configuration: which events it
 * counts, what it groups them by, over which periods, what it adds up, and which algorithm reads it.
 * Adding one writes new keys; it needs neither a schema change nor a class.
 */
public record AggregationDefinition(
    String name,
    Set<EventType> events,
    List<Dimension> groupBy,
    Set<Scope> scopes,
    Measure measure,
    String algorithm) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.]{0,63}");

  /** How a counting round receives an event's keys: one hash key with the periods it adds to. */
  @FunctionalInterface
  interface KeySink {
    void accept(String hashKey, List<KeyPart.Bucket> periods);
  }

  public AggregationDefinition {
    var problems = new Problems();
    if (name == null || !NAME.matcher(name).matches())
      problems.add("name must be 1-64 of [a-z0-9_.] starting with a letter, got '" + name + "'");
    if (algorithm == null || !NAME.matcher(algorithm).matches())
      problems.add(
          "algorithm must be 1-64 of [a-z0-9_.] starting with a letter, got '" + algorithm + "'");
    if (events == null || events.isEmpty())
      problems.add("events must name at least one event type");
    if (groupBy == null || groupBy.isEmpty())
      problems.add("groupBy must name at least one dimension");
    else if (Set.copyOf(groupBy).size() != groupBy.size())
      problems.add("groupBy names a dimension twice: " + groupBy);
    else if (groupBy.contains(Dimension.CO_ITEM)
        && (!groupBy.contains(Dimension.ITEM)
            || groupBy.contains(Dimension.BRAND)
            || groupBy.contains(Dimension.CATEGORY)))
      problems.add("co_item pairs items: groupBy with co_item must name item, and not brand or"
          + " category, got " + groupBy);
    if (scopes == null || scopes.isEmpty()) problems.add("scopes must name at least one scope");
    problems.present("measure", measure);
    problems.throwIfAny();
    events = Set.copyOf(events);
    groupBy = List.copyOf(groupBy);
    scopes = Set.copyOf(scopes);
  }

  /**
   * The keys this event adds {@link #measure} to, one per scope: empty when the aggregation does not
   * count the event's type, or the item lacks a dimension it groups by.
   */
  public List<AggregateKey> keysFor(ActivityEvent event, ItemFacts item) {
    return keysFor(event, item, SessionPartners.NONE);
  }

  /**
   * As {@link #keysFor(ActivityEvent, ItemFacts)}; an aggregation grouping by {@code co_item} counts
   * each pair of the event's item with an item its session held before, both ways round (A with B and
   * B with A), so either item's key lists its partners.
   */
  public List<AggregateKey> keysFor(ActivityEvent event, ItemFacts item, SessionPartners partners) {
    if (!events.contains(event.type())) return List.of();
    if (!groupBy.contains(Dimension.CO_ITEM)) {
      var values = new ArrayList<String>(groupBy.size());
      for (Dimension dimension : groupBy) {
        Optional<String> value = dimension.valueOf(event, item);
        if (value.isEmpty()) return List.of();
        values.add(value.get());
      }
      return periodsOf(event, values);
    }
    var keys = new ArrayList<AggregateKey>();
    for (String partner : partners.before(events)) {
      keys.addAll(periodsOf(event, pairValues(event, event.itemId(), partner)));
      keys.addAll(periodsOf(event, pairValues(event, partner, event.itemId())));
    }
    return keys;
  }

  /**
   * The keys of {@link #keysFor(ActivityEvent, ItemFacts, SessionPartners)}, each hash key written out
   * once with its periods, without building an {@link AggregateKey} per period: what a counting round
   * does per event and aggregation, so the text is built straight from precomputed segments.
   */
  void eachKey(ActivityEvent event, ItemFacts item, SessionPartners partners, KeySink sink) {
    if (!events.contains(event.type())) return;
    List<KeyPart.Bucket> periods = null;
    if (!groupBy.contains(Dimension.CO_ITEM)) {
      var hash = new StringBuilder(96);
      for (int i = 0; i < groupBy.size(); i++) {
        Dimension dimension = groupBy.get(i);
        String value = switch (dimension) {
          case USER -> event.userId();
          case ITEM -> event.itemId();
          default -> dimension.valueOf(event, item).orElse(null);
        };
        if (value == null) return;
        appendSegment(hash, i, value);
      }
      sink.accept(appendSuffix(hash).toString(), periodsOf(event));
      return;
    }
    for (String partner : partners.before(events)) {
      if (periods == null) periods = periodsOf(event);
      sink.accept(pairHash(event, event.itemId(), partner), periods);
      sink.accept(pairHash(event, partner, event.itemId()), periods);
    }
  }

  private String pairHash(ActivityEvent event, String itemId, String partner) {
    var hash = new StringBuilder(96);
    for (int i = 0; i < groupBy.size(); i++) {
      Dimension dimension = groupBy.get(i);
      appendSegment(
          hash,
          i,
          switch (dimension) {
            case ITEM -> itemId;
            case CO_ITEM -> partner;
            default -> dimension.valueOf(event, ItemFacts.UNKNOWN).orElseThrow();
          });
    }
    return appendSuffix(hash).toString();
  }

  /** {@code s@dimension:s@value}, the value escaped as {@link KeyPart.Text} writes it. */
  private void appendSegment(StringBuilder hash, int index, String value) {
    if (index > 0) hash.append(':');
    hash.append("s@").append(groupBy.get(index).wire()).append(":s@");
    for (int c = 0; c < value.length(); c++) {
      char ch = value.charAt(c);
      if (ch == ':' || ch == '\\') hash.append('\\');
      hash.append(ch);
    }
  }

  /** The segments after the dimensions; name and algorithm need no escaping (see {@link #NAME}). */
  private StringBuilder appendSuffix(StringBuilder hash) {
    return hash.append(":s@").append(name).append(":s@").append(algorithm);
  }

  /** The periods of the event's day this aggregation counts into, in {@link Scope} order. */
  private List<KeyPart.Bucket> periodsOf(ActivityEvent event) {
    var day = event.timestamp().atZone(ZoneOffset.UTC).toLocalDate();
    var periods = new ArrayList<KeyPart.Bucket>(scopes.size());
    for (Scope scope : Scope.values()) if (scopes.contains(scope)) periods.add(scope.bucketOf(day));
    return periods;
  }

  private List<String> pairValues(ActivityEvent event, String itemId, String partner) {
    var values = new ArrayList<String>(groupBy.size());
    for (Dimension dimension : groupBy) {
      values.add(
          switch (dimension) {
            case ITEM -> itemId;
            case CO_ITEM -> partner;
            default -> dimension.valueOf(event, ItemFacts.UNKNOWN).orElseThrow();
          });
    }
    return values;
  }

  /** One key per scope: each dimension's name and value, the aggregation, the algorithm, the period. */
  private List<AggregateKey> periodsOf(ActivityEvent event, List<String> values) {
    var prefix = new ArrayList<KeyPart>(groupBy.size() * 2 + 3);
    for (int i = 0; i < groupBy.size(); i++) {
      prefix.add(new KeyPart.Text(groupBy.get(i).wire()));
      prefix.add(new KeyPart.Text(values.get(i)));
    }
    prefix.add(new KeyPart.Text(name));
    prefix.add(new KeyPart.Text(algorithm));
    var day = event.timestamp().atZone(ZoneOffset.UTC).toLocalDate();
    var keys = new ArrayList<AggregateKey>(scopes.size());
    for (Scope scope : Scope.values()) {
      if (!scopes.contains(scope)) continue;
      var parts = new ArrayList<KeyPart>(prefix);
      parts.add(scope.bucketOf(day));
      keys.add(new AggregateKey(parts));
    }
    return keys;
  }
}
