package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.Problems;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Someone Tidings may mail: the fields and rules of the {@code subscribers} import format. The email is held
 * as stored and compared case-insensitively; it belongs to one subscriber at a time. Every way in (the API,
 * CSV and JSON Lines imports, {@link SubscriberService}'s writes) applies {@link #email(Problems, String)}
 * and keeps the normalised address; a row that predates that rule, or was written to the table directly,
 * is still read (so that it can be listed and deleted), and sending parses its address again.
 */
public record Subscriber(
    String id,
    String email,
    Optional<String> name,
    Locale locale,
    ZoneId timeZone,
    Optional<Location> location,
    Consent consent) {

  public Subscriber {
    var problems = new Problems();
    problems.id("id", id);
    problems.present("email", email);
    problems.optionalText("name", name, 200);
    if (name != null
        && name.isPresent()
        && (name.get().indexOf('\n') >= 0 || name.get().indexOf('\r') >= 0)) {
      problems.add("name must not contain line breaks");
    }
    problems.present("locale", locale);
    problems.present("timeZone", timeZone);
    problems.present("location", location);
    problems.present("consent", consent);
    problems.throwIfAny();
  }

  /**
   * The format's email rule: exactly one bare address (see {@link dev.tidings.EmailAddress}). Returns the
   * normalised address to store, or null after recording the problem.
   */
  static @Nullable String email(Problems problems, @Nullable String email) {
    return problems.parseEmail("email", email);
  }

  /**
   * This subscriber with its address normalised, for a write.
   *
   * @throws InvalidInputException naming {@code email} when it is not one bare address
   */
  Subscriber checkedForWrite() {
    var problems = new Problems();
    String normalised = email(problems, email);
    problems.throwIfAny();
    return normalised == null || normalised.equals(email)
        ? this
        : new Subscriber(id, normalised, name, locale, timeZone, location, consent);
  }
}
