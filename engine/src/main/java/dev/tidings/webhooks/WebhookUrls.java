package dev.tidings.webhooks;

import dev.tidings.Problem;
import dev.tidings.fetch.FetchAllowance;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Which URLs an endpoint may have. Deliveries leave the shop's network, so they go over https; plain
 * http is taken only on an installation whose fetch allowance ({@code TIDINGS_FETCH_ALLOW}) lets
 * private or test targets through, which is where an http receiver lives (a test, a demo, a receiver
 * beside the node). Whether the host's addresses may be reached is the guarded fetcher's decision, on
 * every delivery, not this one's: a name can resolve elsewhere tomorrow.
 */
public record WebhookUrls(FetchAllowance allowance) {
  public static final int MAX_LENGTH = 2048;

  /** What is wrong with {@code raw} as the {@code field} of an endpoint, if anything. */
  public Optional<Problem> problem(String field, String raw) {
    if (raw.isBlank()) return Optional.of(Problem.missing(field));
    if (raw.length() > MAX_LENGTH)
      return Optional.of(
          Problem.range(field, field + " must be at most " + MAX_LENGTH + " characters"));
    URI uri;
    try {
      uri = new URI(raw);
    } catch (URISyntaxException e) {
      return Optional.of(Problem.format(field, field + " is not a URL: " + e.getReason()));
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    boolean http = scheme.equals("http");
    if (!scheme.equals("https") && !(http && !allowance.isEmpty()))
      return Optional.of(Problem.format(
          field,
          field + " must be an https URL"
              + (http ? " (http only where TIDINGS_FETCH_ALLOW lets test targets through)" : "")));
    if (uri.getHost() == null || uri.getHost().isEmpty())
      return Optional.of(Problem.format(field, field + " must name a host"));
    if (uri.getRawUserInfo() != null)
      return Optional.of(Problem.format(field, field + " must not carry a user name or password"));
    if (uri.getRawFragment() != null)
      return Optional.of(Problem.format(field, field + " must not have a #fragment"));
    return Optional.empty();
  }
}
