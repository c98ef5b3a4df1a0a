package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
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
    Consent consent,
    Optional<String> market) {

  /**
   * The market code rule (as the {@code subscribers.market} check of V37): a code, not a reference, so a
   * subscriber may name a market the catalogue defines later.
   */
  static final Pattern MARKET_CODE = Pattern.compile("[A-Z][A-Z0-9_]{1,15}");

  /** A subscriber who names no market: the catalogue's market of their country or its default applies. */
  public Subscriber(
      String id,
      String email,
      Optional<String> name,
      Locale locale,
      ZoneId timeZone,
      Optional<Location> location,
      Consent consent) {
    this(id, email, name, locale, timeZone, location, consent, Optional.empty());
  }

  public Subscriber {
    var problems = new Problems();
    problems.id("id", id);
    problems.present("email", email);
    problems.optionalText("name", name, 200);
    if (name != null
        && name.isPresent()
        && (name.get().indexOf('\n') >= 0 || name.get().indexOf('\r') >= 0)) {
      problems.add(Problem.format("name", "name must not contain line breaks"));
    }
    problems.present("locale", locale);
    problems.present("timeZone", timeZone);
    problems.present("location", location);
    problems.present("consent", consent);
    problems.present("market", market);
    if (market != null
        && market.isPresent()
        && !MARKET_CODE.matcher(market.get()).matches()) {
      problems.add(marketProblem(market.get()));
    }
    problems.throwIfAny();
  }

  /** A market code that breaks {@link #MARKET_CODE}, naming the field {@code market}. */
  static Problem marketProblem(String code) {
    return Problem.format(
        "market",
        "market must be 2-16 characters of A-Z 0-9 _ starting with a letter, got "
            + Problems.quote(code));
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
        : new Subscriber(id, normalised, name, locale, timeZone, location, consent, market);
  }
}
