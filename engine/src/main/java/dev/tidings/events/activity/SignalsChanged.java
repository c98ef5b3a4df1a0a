package dev.tidings.events.activity;

import dev.tidings.events.Broadcast;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A person's recommender signals changed: their aggregates (counting rounds, rebuilds, imports,
 * retention, erasure) or what they follow (the audience's follows). Told by the tables' own statement
 * triggers, whoever wrote them (migration V29), as a {@link Broadcast}: every node that keeps
 * signals in memory marks the person stale. A statement that changes more than 20,000 people tells
 * {@link Everyone}.
 */
public sealed interface SignalsChanged {
  /** One person's signals changed. */
  record Of(String subscriberId) implements SignalsChanged {}

  /** Too many changed to name: everything held may be stale. */
  record Everyone() implements SignalsChanged {}

  Broadcast<SignalsChanged> BROADCAST = new Broadcast<>("tidings_signals", SignalsChanged::decode);

  /**
   * One notification's lines: {@code *} for everyone, else a person's id as an aggregate key's text
   * part writes it ({@code s@} then the id, a {@code :} or {@code \} in it escaped with a backslash).
   */
  static List<SignalsChanged> decode(List<String> lines) {
    var told = new ArrayList<SignalsChanged>(lines.size());
    for (String line : lines) {
      if (line.equals("*")) return List.of(new Everyone());
      String id = idOf(line);
      if (id != null) told.add(new Of(id));
    }
    return told;
  }

  /** The id a line names, or null for a line that is not one text part. */
  private static @Nullable String idOf(String line) {
    if (line.length() < 3 || !line.startsWith("s@")) return null;
    var id = new StringBuilder(line.length() - 2);
    for (int at = 2; at < line.length(); at++) {
      char c = line.charAt(at);
      if (c == ':') return null;
      if (c == '\\') {
        if (++at == line.length()) return null;
        c = line.charAt(at);
      }
      id.append(c);
    }
    return id.toString();
  }
}
