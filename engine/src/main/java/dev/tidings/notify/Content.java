package dev.tidings.notify;

import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.WebUrl;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Something people follow and hear about: a brand's new product, an artist's artwork, an article, a
 * show or an event. Its owners are the followed entities it belongs to (a brand, an artist, a gallery);
 * a place and a radius make it news for subscribers nearby too. It is worth telling while published and
 * not over ({@link #applicableAt}).
 */
public record Content(
    String id,
    ContentType type,
    String title,
    Optional<String> url,
    Optional<String> imageUrl,
    List<FollowTarget> owners,
    Optional<GeoPoint> location,
    double radiusKm,
    Optional<Instant> startsAt,
    Optional<Instant> endsAt,
    boolean published) {
  public static final int MAX_OWNERS = 20;
  public static final double DEFAULT_RADIUS_KM = 25;

  public Content {
    var problems = new Problems();
    problems.id("id", id);
    problems.present("type", type);
    problems.requiredText("title", title, 300);
    link(problems, "url", url);
    link(problems, "imageUrl", imageUrl);
    if (owners == null) problems.add(Problem.missing("owners"));
    else if (owners.size() > MAX_OWNERS)
      problems.add(Problem.range(
          "owners", "owners must be at most " + MAX_OWNERS + ", got " + owners.size()));
    else if (new HashSet<>(owners).size() != owners.size())
      problems.add(Problem.at("owners", Problem.Rule.OTHER, "owners names an owner twice"));
    if (!(radiusKm > 0 && radiusKm <= 1_000))
      problems.add(Problem.range("radiusKm", "radiusKm must be within (0, 1000], got " + radiusKm));
    if (startsAt != null
        && endsAt != null
        && startsAt.isPresent()
        && endsAt.isPresent()
        && !endsAt.get().isAfter(startsAt.get()))
      problems.add(Problem.range("endsAt", "endsAt must be after startsAt"));
    problems.throwIfAny();
    owners = List.copyOf(owners);
  }

  /** Links go into emails as they are: absolute http(s) URLs only. */
  private static void link(Problems problems, String field, @Nullable Optional<String> value) {
    if (value == null) problems.add(Problem.missing(field));
    else
      value
          .flatMap(WebUrl::problem)
          .ifPresent(problem -> problems.add(Problem.format(
              field, field + " " + problem + ", got " + Problems.quote(value.get()))));
  }

  /** Still worth telling at {@code now}: published, and not over. */
  public boolean applicableAt(Instant now) {
    return published && endsAt.map(now::isBefore).orElse(true);
  }

  public Content withPublished(boolean published) {
    return new Content(
        id, type, title, url, imageUrl, owners, location, radiusKm, startsAt, endsAt, published);
  }
}
