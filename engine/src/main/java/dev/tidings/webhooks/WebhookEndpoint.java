package dev.tidings.webhooks;

import dev.tidings.events.CloudEventType;
import java.net.URI;
import java.time.Instant;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A shop's endpoint as the API and the System page show it: never its secret.
 *
 * @param types the event types it hears; empty: every type, those added later included
 * @param previousSecretUntil while a rotated secret is still valid, when it stops being
 * @param failuresInARow failed attempts since the last delivered one
 */
public record WebhookEndpoint(
    String id,
    URI url,
    String description,
    Set<CloudEventType> types,
    boolean enabled,
    Instant createdAt,
    Instant updatedAt,
    @Nullable Instant previousSecretUntil,
    @Nullable Instant lastSuccessAt,
    @Nullable Instant lastFailureAt,
    @Nullable String lastFailure,
    int failuresInARow) {
  public WebhookEndpoint {
    types = Set.copyOf(types);
  }

  /** Whether it is sent events of {@code type}. */
  public boolean hears(CloudEventType type) {
    return enabled && (types.isEmpty() || types.contains(type));
  }
}
