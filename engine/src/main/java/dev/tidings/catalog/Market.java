package dev.tidings.catalog;

import dev.tidings.Problem;
import dev.tidings.Problems;
import java.util.Currency;
import java.util.IllformedLocaleException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where products are sold: every email to a subscriber of this market shows its products priced in
 * {@code currency}, written as {@code locale} writes amounts. Throws {@link
 * dev.tidings.InvalidInputException} naming every broken field.
 *
 * @param code 2-16 characters of A-Z 0-9 _, starting with a letter ({@code GB}, {@code DE}, {@code EU_B2B})
 * @param countries ISO 3166-1 alpha-2 codes of the countries whose subscribers belong here unless a
 *     subscriber names a market
 * @param isDefault the market of subscribers that no other rule places (at most one market is)
 */
public record Market(
    String code, Currency currency, Locale locale, List<String> countries, boolean isDefault) {
  private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]{1,15}");
  private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());
  /** More countries than a market needs, few enough to keep a row small. */
  public static final int MAX_COUNTRIES = 300;

  public Market {
    var problems = new Problems();
    if (problems.present("code", code) && !isCode(code))
      problems.add(Problem.format(
          "code",
          "code must be 2-16 characters of A-Z 0-9 _ starting with a letter, got "
              + Problems.quote(code)));
    problems.present("currency", currency);
    if (problems.present("locale", locale) && locale.getLanguage().isEmpty())
      problems.add(Problem.format("locale", "locale must name a language, such as en-GB"));
    if (problems.present("countries", countries)) {
      if (countries.size() > MAX_COUNTRIES)
        problems.add(
            Problem.range("countries", "countries must list at most " + MAX_COUNTRIES + " codes"));
      for (int i = 0; i < countries.size(); i++) {
        String country = countries.get(i);
        if (country == null || !COUNTRIES.contains(country))
          problems.add(Problem.at(
              "countries[" + i + "]",
              country == null ? Problem.Rule.MISSING : Problem.Rule.UNKNOWN,
              "countries must be ISO 3166-1 alpha-2 codes such as DE, got "
                  + (country == null ? "null" : Problems.quote(country))));
      }
    }
    problems.throwIfAny();
    countries = List.copyOf(new LinkedHashSet<>(countries));
  }

  /** Whether {@code code} is in this JDK's list of ISO 3166-1 alpha-2 countries. */
  static boolean isCountry(String code) {
    return COUNTRIES.contains(code);
  }

  /** Whether {@code text} is a market code; for inputs that name a market (a subscriber's, a price's). */
  public static boolean isCode(@Nullable String text) {
    return text != null && CODE.matcher(text).matches();
  }

  /** The locale a BCP 47 tag names, or null when the tag is not well formed (the caller reports it). */
  public static @Nullable Locale parseLocale(@Nullable String tag) {
    if (tag == null || tag.isBlank() || tag.length() > 35) return null;
    try {
      return new Locale.Builder().setLanguageTag(tag).build();
    } catch (IllformedLocaleException e) {
      return null;
    }
  }
}
