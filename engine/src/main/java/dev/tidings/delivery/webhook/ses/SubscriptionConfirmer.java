package dev.tidings.delivery.webhook.ses;

import java.net.URI;

/** Confirms an SNS subscription by visiting its (verified, allow-listed) SubscribeURL. */
@FunctionalInterface
public interface SubscriptionConfirmer {
  void confirm(URI subscribeUrl);
}
