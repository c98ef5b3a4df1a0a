package dev.tidings.mail;

import dev.tidings.EmailAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * A mailbox: exactly one bare address ({@link EmailAddress}, kept normalised) and an optional display
 * name free of line breaks. The name goes into a header only through {@link MimeEmails}, which quotes or
 * encodes it, so no name can add a second address.
 */
public record Address(String email, Optional<String> name) {
  public Address {
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(name, "name");
    email = switch (EmailAddress.parse(email)) {
      case EmailAddress.Valid valid -> valid.address().value();
      case EmailAddress.Invalid invalid ->
        throw new IllegalArgumentException("the address " + invalid.message());
    };
    name.ifPresent(value -> HeaderText.requireSingleLine("display name", value));
  }

  public static Address of(String email) {
    return new Address(email, Optional.empty());
  }

  public static Address of(String email, String name) {
    return new Address(email, Optional.of(name));
  }
}
