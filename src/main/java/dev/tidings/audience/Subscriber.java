package dev.tidings.audience;

import dev.tidings.Problems;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;

/**
 * Someone Tidings may mail: the fields and rules of the {@code subscribers} import format. The email is
 * stored as given and compared case-insensitively; it belongs to one subscriber at a time.
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
    email(problems, email);
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

  /** The format's email rule: one {@code @} with text on both sides, no whitespace, at most 254 characters. */
  static void email(Problems problems, String email) {
    if (!problems.present("email", email)) return;
    int at = email.indexOf('@');
    boolean ok =
        email.length() <= 254 && at > 0 && at == email.lastIndexOf('@') && at < email.length() - 1;
    for (int i = 0; ok && i < email.length(); i++) {
      char c = email.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c))
        ok = false;
    }
    if (!ok)
      problems.add("email must be an address with one @, no spaces, up to 254 characters, got "
          + Problems.quote(email));
  }
}
