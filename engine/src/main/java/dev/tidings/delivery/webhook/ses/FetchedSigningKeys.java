package dev.tidings.delivery.webhook.ses;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.delivery.webhook.VerificationUnavailable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * SNS signing certificates fetched from their (allow-listed) URL and kept: AWS rotates them rarely
 * and names each by its own URL, so one fetch per certificate and node is enough. TLS to the SNS host
 * vouches for the certificate; its validity dates are checked on every use.
 */
public final class FetchedSigningKeys implements SigningKeys {
  private static final int MAX_CACHED = 64;
  private static final int MAX_CERTIFICATE_BYTES = 64 * 1024;

  private final HttpClient client;
  private final Duration timeout;
  private final InstantSource clock;
  // only allow-listed URLs get here, but a flood of distinct ones must not grow memory
  private final Cache<URI, X509Certificate> cache =
      Caffeine.newBuilder().maximumSize(MAX_CACHED).build();

  public FetchedSigningKeys(HttpClient client, Duration timeout, InstantSource clock) {
    this.client = client;
    this.timeout = timeout;
    this.clock = clock;
  }

  public static FetchedSigningKeys withTimeout(Duration timeout, InstantSource clock) {
    return new FetchedSigningKeys(
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build(),
        timeout,
        clock);
  }

  @Override
  public List<PublicKey> keysFor(URI certificateUrl) {
    X509Certificate certificate = cache.getIfPresent(certificateUrl);
    if (certificate == null) {
      certificate = fetch(certificateUrl);
      cache.put(certificateUrl, certificate);
    }
    return Certificates.validAt(certificate, clock.instant())
        ? List.of(certificate.getPublicKey())
        : List.of();
  }

  private X509Certificate fetch(URI url) {
    try {
      HttpResponse<byte[]> response = client.send(
          HttpRequest.newBuilder(url).timeout(timeout).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200)
        throw new VerificationUnavailable(
            "the SNS signing certificate " + url + " answered " + response.statusCode());
      if (response.body().length > MAX_CERTIFICATE_BYTES)
        throw new VerificationUnavailable("the SNS signing certificate " + url + " is too large");
      return Certificates.parse(response.body()).getFirst();
    } catch (IOException | GeneralSecurityException e) {
      throw new VerificationUnavailable(
          "cannot fetch the SNS signing certificate " + url + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VerificationUnavailable("interrupted while fetching " + url, e);
    }
  }
}
