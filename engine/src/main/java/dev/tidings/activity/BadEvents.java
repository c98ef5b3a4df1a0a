package dev.tidings.activity;

import dev.tidings.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * The bad events of one request, each named by its position ("event 3: ..." in an array, "line 3: ..." in
 * JSON Lines). Only the first {@value ImportLimits#MAX_REPORTED_ERRORS} are listed, so a huge body of bad
 * lines cannot make a huge answer; the rest are counted.
 */
final class BadEvents {
  private final String position;
  /** Enough to fix a request by; a body of a million bad events must not make an answer as big. */
  static final int MAX_LISTED = 1000;

  private final List<String> listed = new ArrayList<>();
  private long unlisted;

  BadEvents(String position) {
    this.position = position;
  }

  void add(long at, String problem) {
    if (listed.size() < MAX_LISTED) listed.add(position + " " + at + ": " + problem);
    else unlisted++;
  }

  /** @throws InvalidInputException listing every bad event found, when there is one */
  void throwIfAny() {
    if (listed.isEmpty()) return;
    var problems = new ArrayList<>(listed);
    if (unlisted > 0) problems.add("and " + unlisted + " more bad events");
    throw new InvalidInputException(problems);
  }
}
