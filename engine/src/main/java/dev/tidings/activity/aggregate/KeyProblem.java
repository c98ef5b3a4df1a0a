package dev.tidings.activity.aggregate;

/** A key that does not follow the grammar; the message says where and why. */
public final class KeyProblem extends IllegalArgumentException {
  public KeyProblem(String message) {
    super(message);
  }
}
