package dev.tidings.delivery.webhook.sendgrid;

import dev.tidings.delivery.webhook.Fixtures;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** SendGrid's published test keys, and signing of extra bodies with vector B's public test key. */
public final class SendGridKeys {
  public static final String VECTOR_A =
      "sendgrid/signed-event-webhook/vector-A-2020-09-dropped-event/";
  public static final String VECTOR_B =
      "sendgrid/signed-event-webhook/vector-B-2020-05-test-event/";

  private SendGridKeys() {}

  public static PublicKey publicKey(String base64Path) {
    try {
      return KeyFactory.getInstance("EC")
          .generatePublic(
              new X509EncodedKeySpec(Base64.getDecoder().decode(Fixtures.text(base64Path))));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Signs {@code timestamp + body} with sendgrid-go's test-only private key (vector B). */
  public static String sign(String timestamp, byte[] body) {
    try {
      String pem = Fixtures.text(VECTOR_B + "test-only-private-key.pem");
      String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
      byte[] der = Base64.getDecoder().decode(base64);
      PrivateKey key = pem.contains("BEGIN EC PRIVATE KEY")
          ? KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pkcs8(der)))
          : KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
      Signature signer = Signature.getInstance("SHA256withECDSA");
      signer.initSign(key);
      signer.update(timestamp.getBytes(StandardCharsets.UTF_8));
      signer.update(body);
      return Base64.getEncoder().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Wraps a SEC1 EC private key (P-256) in the PKCS#8 envelope the JDK reads. */
  private static byte[] pkcs8(byte[] sec1) {
    byte[] algorithm = {
      0x30,
      0x13,
      0x06,
      0x07,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0xce,
      0x3d,
      0x02,
      0x01,
      0x06,
      0x08,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0xce,
      0x3d,
      0x03,
      0x01,
      0x07
    };
    byte[] version = {0x02, 0x01, 0x00};
    byte[] octets = derWrap(0x04, sec1);
    byte[] body = new byte[version.length + algorithm.length + octets.length];
    System.arraycopy(version, 0, body, 0, version.length);
    System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
    System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
    return derWrap(0x30, body);
  }

  private static byte[] derWrap(int tag, byte[] content) {
    byte[] length = content.length < 128
        ? new byte[] {(byte) content.length}
        : new byte[] {(byte) 0x81, (byte) content.length};
    byte[] out = new byte[1 + length.length + content.length];
    out[0] = (byte) tag;
    System.arraycopy(length, 0, out, 1, length.length);
    System.arraycopy(content, 0, out, 1 + length.length, content.length);
    return out;
  }
}
