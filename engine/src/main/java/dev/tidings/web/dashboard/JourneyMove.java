package dev.tidings.web.dashboard;

import dev.tidings.journeys.JourneyState;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The moves a journey's page offers, each from the states the journeys allow it ({@link
 * JourneyState#reachedFrom}). The API also takes a move to the state a journey is in as done; the
 * page offers only the moves that change something.
 */
enum JourneyMove {
  ACTIVATE("activate", "Activate", "activated", JourneyState.ACTIVE),
  PAUSE("pause", "Pause", "paused", JourneyState.PAUSED),
  DRAIN("drain", "Drain", "drained", JourneyState.DRAINING);

  final String verb;
  final String label;
  final String done;
  final JourneyState to;
  final Set<JourneyState> from;

  JourneyMove(String verb, String label, String done, JourneyState to) {
    this.verb = verb;
    this.label = label;
    this.done = done;
    this.to = to;
    this.from = to.reachedFrom();
  }

  /** The moves a journey in {@code state} can make, in the order the page shows them. */
  static List<JourneyMove> from(JourneyState state) {
    return Arrays.stream(values()).filter(move -> move.from.contains(state)).toList();
  }

  static Optional<JourneyMove> of(String verb) {
    return Arrays.stream(values()).filter(move -> move.verb.equals(verb)).findFirst();
  }

  /** What the move does to the people, said beside its button. */
  String hint() {
    return switch (this) {
      case ACTIVATE -> "People enter and move through it.";
      case PAUSE -> "Nobody enters and nobody moves until it is activated again.";
      case DRAIN -> "Nobody enters; the people inside go on to the end.";
    };
  }
}
