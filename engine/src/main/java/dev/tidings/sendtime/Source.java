package dev.tidings.sendtime;

/** What a recipient's planned hour rests on; the metric's {@code source} label. */
public enum Source {
  /** Their own opens, shrunk towards the audience's hours. */
  history,
  /** No opens yet: the default local hour in their time zone. */
  time_zone,
  /** Neither opens nor a known time zone: the audience's busiest hour in the window. */
  audience
}
