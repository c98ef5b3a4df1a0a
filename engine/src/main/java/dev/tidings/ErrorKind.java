package dev.tidings;

/**
 * What went wrong, in the words every caller understands: the HTTP edge answers each kind one way, so a
 * feature says what happened by the kind of its exception and never by choosing a status itself.
 */
public enum ErrorKind {
  /** What was asked for does not exist. */
  NOT_FOUND,
  /** The request contradicts what is stored (it exists already, it changed meanwhile, a state forbids it). */
  CONFLICT,
  /** The input breaks a rule; the detail says which. */
  INVALID,
  /** Something Tidings depends on (the database, Redis, the queue) cannot be used now; later may work. */
  UNAVAILABLE,
  /** The caller did not prove who it is. */
  UNAUTHENTICATED,
  /** The caller is known, and still refused. */
  FORBIDDEN,
  /** A failure of Tidings itself: nothing the caller did or can fix. */
  INTERNAL
}
