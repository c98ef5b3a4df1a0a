package dev.tidings;

import java.util.List;

/** The one unchecked root of Tidings' own failures; subclasses live beside the feature that throws them. */
public class TidingsException extends RuntimeException {
  public TidingsException(String message) {
    super(message);
  }

  public TidingsException(String message, Throwable cause) {
    super(message, cause);
  }

  /** How the edge answers this failure; a subclass that the caller can act on says which kind it is. */
  public ErrorKind kind() {
    return ErrorKind.INTERNAL;
  }

  /**
   * What the person who asked may read. Never shown for {@link ErrorKind#INTERNAL}; a subclass whose
   * message may name a host or a URL (an outage) overrides it with words of its own.
   */
  public String detail() {
    return String.valueOf(getMessage());
  }

  /**
   * This failure as the problems a caller can act on, each with its field path: one about the whole
   * request for most, one per broken rule for {@link InvalidInputException}.
   */
  public List<Problem> asProblems() {
    return List.of(new Problem(kind(), Problem.Rule.OTHER, "", detail()));
  }

  /** The innermost cause's message (its class name when it has none): what an operator can act on. */
  @SuppressWarnings(
      "ReferenceEquality") // identity on purpose: a cause that is its own cause ends the chain
  public static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
