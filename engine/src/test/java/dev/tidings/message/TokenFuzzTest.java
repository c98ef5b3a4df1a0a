package dev.tidings.message;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.config.Secret;
import dev.tidings.fuzz.Inputs;
import dev.tidings.fuzz.Refusals;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The token in every email URL (/o /c /p /u): checking it never throws, whatever a proxy, a scanner or a
 * person made of it; the message id in the API's paths parses or is empty.
 */
class TokenFuzzTest {
  private static final String SECRET = "fuzz-token-secret-0123456789";
  private static final TokenCodec CODEC = TokenCodec.of(new Secret(SECRET));

  @FuzzTest
  void token_decode(byte[] data) {
    Refusals.allowOnly(() -> CODEC.decode(Inputs.text(data)));
  }

  /**
   * A body signed with the node's own key: what a token of a later version, or one made with a leaked
   * secret, reaches past the signature check. Reading it must still answer a verdict.
   */
  @FuzzTest
  void signed_token_body(byte[] data) throws Exception {
    byte[] body = new byte[data.length + 2];
    body[0] = 1; // the version this codec reads
    body[1] = (byte) (sha256("tidings token key id\0" + SECRET)[0] & 0xff);
    System.arraycopy(data, 0, body, 2, data.length);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(sha256("tidings token key\0" + SECRET), "HmacSHA256"));
    byte[] signed = Arrays.copyOf(body, body.length + 12);
    System.arraycopy(mac.doFinal(body), 0, signed, body.length, 12);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
    Refusals.allowOnly(() -> CODEC.decode(token));
  }

  @FuzzTest
  void message_id_text(byte[] data) {
    Refusals.allowOnly(() -> MessageId.parse(Inputs.text(data)));
  }

  private static byte[] sha256(String text) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8));
  }
}
