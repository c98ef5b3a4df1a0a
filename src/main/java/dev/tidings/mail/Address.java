package dev.tidings.mail;

import java.util.Objects;
import java.util.Optional;

/** A mailbox: an address and an optional display name, both free of line breaks. */
public record Address(String email, Optional<String> name) {
  public Address {
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(name, "name");
    HeaderText.requireSingleLine("address", email);
    name.ifPresent(value -> HeaderText.requireSingleLine("display name", value));
    int at = email.indexOf('@');
    if (at < 1
        || at != email.lastIndexOf('@')
        || at == email.length() - 1
        || email.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("not an email address: '" + email + "'");
    }
  }

  public static Address of(String email) {
    return new Address(email, Optional.empty());
  }

  public static Address of(String email, String name) {
    return new Address(email, Optional.of(name));
  }
}
