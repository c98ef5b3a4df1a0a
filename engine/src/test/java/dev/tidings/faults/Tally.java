package dev.tidings.faults;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The oracle's arithmetic: what clients were told is stored, against what is stored. {@code lost} is
 * how many acknowledged ids are missing from the store; {@code duplicated} how many stored entries
 * repeat an id already stored once (so three copies of one id count two).
 */
public record Tally(long acknowledged, long stored, long lost, long duplicated) {

  public static Tally of(Collection<String> acknowledged, Collection<String> stored) {
    Map<String, Integer> copies = new HashMap<>();
    for (String id : stored) copies.merge(id, 1, Integer::sum);
    long duplicated = 0;
    for (int count : copies.values()) duplicated += count - 1;
    Set<String> told = new HashSet<>(acknowledged);
    long lost = 0;
    for (String id : told) if (!copies.containsKey(id)) lost++;
    return new Tally(told.size(), stored.size(), lost, duplicated);
  }
}
