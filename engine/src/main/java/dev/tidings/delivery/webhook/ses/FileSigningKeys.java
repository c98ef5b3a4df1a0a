package dev.tidings.delivery.webhook.ses;

import dev.tidings.config.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.InstantSource;
import java.util.List;

/**
 * SNS signing certificates from a PEM file the operator keeps current, for nodes that may not reach
 * AWS: every certificate in it that is valid now is a candidate for every message.
 */
public final class FileSigningKeys implements SigningKeys {
  private final List<X509Certificate> certificates;
  private final InstantSource clock;

  private FileSigningKeys(List<X509Certificate> certificates, InstantSource clock) {
    this.certificates = List.copyOf(certificates);
    this.clock = clock;
  }

  public static FileSigningKeys read(Path file, InstantSource clock) {
    try {
      return new FileSigningKeys(Certificates.parse(Files.readAllBytes(file)), clock);
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(List.of("TIDINGS_SES_SIGNING_CERT_FILE: " + file
          + " holds no readable X.509 certificate (" + e.getMessage() + ")"));
    }
  }

  @Override
  public List<PublicKey> keysFor(URI certificateUrl) {
    var now = clock.instant();
    return certificates.stream()
        .filter(certificate -> Certificates.validAt(certificate, now))
        .map(X509Certificate::getPublicKey)
        .toList();
  }
}
