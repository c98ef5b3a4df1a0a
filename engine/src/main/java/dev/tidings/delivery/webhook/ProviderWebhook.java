package dev.tidings.delivery.webhook;

import dev.tidings.delivery.ReceiptSink;
import java.util.Optional;
import java.util.function.Function;

/**
 * One provider's webhook, as the HTTP edge calls every one of them: verify the request, map its
 * events, hand them to the sink, and say what was handed. A request it will not take is a {@link
 * WebhookRefused} that says why.
 */
public interface ProviderWebhook {
  /** The provider's name in the URL ({@code /webhooks/{provider}}), the logs and the metrics. */
  String provider();

  Mapped receive(Request request, ReceiptSink sink);

  /** What a webhook reads of an HTTP request: its headers by name, and its body. */
  record Request(Function<String, Optional<String>> headers, byte[] body) {
    public Optional<String> header(String name) {
      return headers.apply(name);
    }
  }
}
