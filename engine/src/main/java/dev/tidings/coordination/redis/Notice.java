package dev.tidings.coordination.redis;

import java.util.Optional;

/**
 * What a winner tells every node on the compute-once channel: the key's value was published (the value
 * travels with the notice, so a waiting node needs no read), or its lock was released by a winner that
 * failed. The text is a type letter, the key's length in UTF-16 units, a colon, the key, then the value;
 * the scripts only append the value to a header built here, so both ends count the same way.
 */
sealed interface Notice {
  String key();

  record Published(String key, String value) implements Notice {}

  record Released(String key) implements Notice {}

  char PUBLISHED = 'v';
  char RELEASED = 'r';

  /** The part before the value: the script appends the value (or nothing) to it. */
  static String header(char type, String key) {
    return type + Integer.toString(key.length()) + ':' + key;
  }

  /** The notice in {@code message}, or empty when it is not one (another sender on the channel). */
  static Optional<Notice> parse(String message) {
    int colon = message.indexOf(':');
    if (message.length() < 3 || colon < 2) return Optional.empty();
    int length;
    try {
      length = Integer.parseInt(message, 1, colon, 10);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    int keyEnd = colon + 1 + length;
    if (length < 0 || keyEnd > message.length()) return Optional.empty();
    String key = message.substring(colon + 1, keyEnd);
    return switch (message.charAt(0)) {
      case PUBLISHED -> Optional.of(new Published(key, message.substring(keyEnd)));
      case RELEASED -> Optional.of(new Released(key));
      default -> Optional.empty();
    };
  }
}
