package dev.tidings.webhooks;

import dev.tidings.events.CloudEventType;
import java.util.Optional;
import java.util.Set;

/**
 * What a request sets of an endpoint, each field checked already: creating takes the URL and
 * defaults the rest (no description, every type, enabled); updating changes only what is present.
 */
public record EndpointFields(
    Optional<String> url,
    Optional<String> description,
    Optional<Set<CloudEventType>> types,
    Optional<Boolean> enabled) {
  public EndpointFields {
    types = types.map(Set::copyOf);
  }
}
