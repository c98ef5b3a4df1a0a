package dev.tidings.fetch;

/** What a guarded POST came to ({@link GuardedFetcher#post}). */
public sealed interface PostResult {
  /**
   * The server answered with {@code status}; {@code head} is the start of its body, at most the byte
   * limit (the rest is never read).
   */
  @SuppressWarnings("ArrayRecordComponent") // the answer's first bytes, for a message; not compared
  record Answered(int status, byte[] head) implements PostResult {
    public boolean successful() {
      return status >= 200 && status <= 299;
    }
  }

  /** Not sent because the guard forbids it: the scheme, the URL's form, an address. */
  record Refused(String reason) implements PostResult {}

  /** Tried and no answer came: no connection, a reset, too slow. */
  record Failed(String reason) implements PostResult {}

  /** One line for a log or an operator: the status, or why nothing was answered. */
  default String describe() {
    return switch (this) {
      case Answered answered -> "status " + answered.status();
      case Refused refused -> "refused: " + refused.reason();
      case Failed failed -> "failed: " + failed.reason();
    };
  }
}
