package dev.tidings.delivery.webhook.ses;

import java.net.URI;
import java.security.PublicKey;
import java.util.List;

/** Where the keys that may have signed an SNS message come from (the URL is allow-listed already). */
@FunctionalInterface
public interface SigningKeys {
  /** The candidate keys; empty when none is valid now. */
  List<PublicKey> keysFor(URI certificateUrl);
}
