package dev.tidings.mail;

/** Guards every value that becomes a header line: a CR or LF in data would let it add headers of its own. */
final class HeaderText {
  private HeaderText() {}

  static String requireSingleLine(String what, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\r' || c == '\n' || c == '\0') {
        throw new IllegalArgumentException(
            what + " must not contain a line break or NUL (header injection)");
      }
    }
    return value;
  }
}
