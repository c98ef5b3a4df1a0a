package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where a subscriber is: a point, a city and a country, each optional (the format allows a city without
 * coordinates), at least one given.
 */
public record Location(Optional<GeoPoint> point, Optional<String> city, Optional<String> country) {
  private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());

  public Location {
    var problems = new Problems();
    problems.optionalText("city", city, 200);
    if (point == null) problems.add(Problem.missing("point"));
    if (country == null) {
      problems.add(Problem.missing("country"));
    } else if (country.isPresent() && !COUNTRIES.contains(country.get())) {
      problems.add(Problem.unknown(
          "country",
          "country must be an ISO 3166-1 alpha-2 code such as DE, got "
              + Problems.quote(country.get())));
    }
    problems.throwIfAny();
    if (point.isEmpty() && city.isEmpty() && country.isEmpty()) {
      throw new InvalidInputException(Problem.at(
          "location", Problem.Rule.MISSING, "a location needs a point, a city or a country"));
    }
  }
}
