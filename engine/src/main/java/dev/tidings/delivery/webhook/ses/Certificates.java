package dev.tidings.delivery.webhook.ses;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/** X.509 certificates from PEM or DER bytes, and whether one is valid at a given moment. */
final class Certificates {
  private Certificates() {}

  static List<X509Certificate> parse(byte[] bytes) throws GeneralSecurityException {
    var factory = CertificateFactory.getInstance("X.509");
    var certificates = new ArrayList<X509Certificate>();
    try (InputStream in = new ByteArrayInputStream(bytes)) {
      for (var certificate : factory.generateCertificates(in))
        certificates.add((X509Certificate) certificate);
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
    if (certificates.isEmpty()) throw new GeneralSecurityException("no certificate found");
    return certificates;
  }

  static boolean validAt(X509Certificate certificate, Instant at) {
    try {
      certificate.checkValidity(Date.from(at));
      return true;
    } catch (CertificateExpiredException | CertificateNotYetValidException e) {
      return false;
    }
  }
}
