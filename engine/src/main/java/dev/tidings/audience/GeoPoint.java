package dev.tidings.audience;

import dev.tidings.Problem;
import dev.tidings.Problems;

/** A position in degrees (WGS 84). */
public record GeoPoint(double latitude, double longitude) {
  public GeoPoint {
    var problems = new Problems();
    if (!(latitude >= -90 && latitude <= 90))
      problems.add(Problem.range("latitude", "latitude must be within -90..90, got " + latitude));
    if (!(longitude >= -180 && longitude <= 180))
      problems.add(
          Problem.range("longitude", "longitude must be within -180..180, got " + longitude));
    problems.throwIfAny();
  }
}
