package dev.tidings.delivery.webhook.ses;

import dev.tidings.delivery.webhook.VerificationUnavailable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The GET SNS asks for; a failure answers 503 so SNS sends the confirmation again. */
public final class HttpSubscriptionConfirmer implements SubscriptionConfirmer {
  private final HttpClient client;
  private final Duration timeout;

  public HttpSubscriptionConfirmer(Duration timeout) {
    this.client = HttpClient.newBuilder()
        .connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    this.timeout = timeout;
  }

  @Override
  public void confirm(URI subscribeUrl) {
    try {
      var response = client.send(
          HttpRequest.newBuilder(subscribeUrl).timeout(timeout).GET().build(),
          HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() / 100 != 2)
        throw new VerificationUnavailable(
            "SNS answered " + response.statusCode() + " to the subscription confirmation");
    } catch (IOException e) {
      throw new VerificationUnavailable(
          "cannot confirm the SNS subscription: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VerificationUnavailable("interrupted while confirming the SNS subscription", e);
    }
  }
}
