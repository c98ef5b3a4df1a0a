package dev.tidings.message;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tidings.config.Secret;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes and checks the tokens in email URLs: the {@link MessageToken}'s bytes (a version, the id of the
 * key that signed it, the message id, the minute of issue, the number of slots, in version 2 the
 * experiment arm, in version 3 the arm (0 for none) and the subscriber's language tag), then 96 bits of HMAC-SHA256 over them, in base64url. An email in no arm gets a
 * version 1 token, as every email did before arms were carried, so tokens already sent stay valid; an
 * email written for a subscriber's locale gets version 3, about eight characters longer. A
 * token for a numeric subscriber id is about 40 characters.
 *
 * <p>{@code TIDINGS_SECRET} may hold several secrets separated by commas: the first signs, every one
 * verifies, so a secret is rotated by putting the new one first and dropping the old one once the emails
 * that carry it no longer matter. Each token names its key by a byte derived from the secret, so checking
 * costs one MAC, not one per secret.
 *
 * <p>Checking never throws: whatever a proxy, a scanner or a person made of a URL gets a
 * {@link Verdict}. Thread-safe.
 */
public final class TokenCodec {
  static final Instant EPOCH = Instant.parse("2024-01-01T00:00:00Z");
  private static final int VERSION = 1;
  private static final int VERSION_WITH_ARM = 2;
  private static final int VERSION_WITH_LOCALE = 3;
  private static final int MAC_BYTES = 12;
  private static final int MIN_SECRET_CHARS = 16;
  /** Longer than any token this codec writes (a 64-character subscriber id makes about 120). */
  private static final int MAX_TOKEN_CHARS = 200;

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final List<SigningKey> keys;

  private TokenCodec(List<SigningKey> keys) {
    this.keys = List.copyOf(keys);
  }

  /** What a token check found. */
  public sealed interface Verdict {
    record Valid(MessageToken token) implements Verdict {}

    record Refused(Reason reason) implements Verdict {}
  }

  public enum Reason {
    /** Not a token of ours at all: wrong length, characters, version or shape. */
    MALFORMED,
    /** Signed with a key this node does not have (retired, or another installation's). */
    UNKNOWN_KEY,
    /** The signature does not match: a changed character, a forged token. */
    FORGED
  }

  /** The keys in {@code secret}: one secret, or several separated by commas, the first signing. */
  public static TokenCodec of(Secret secret) {
    List<SigningKey> keys = new ArrayList<>();
    for (String part : secret.value().split(",", -1)) {
      String one = part.strip();
      if (one.length() < MIN_SECRET_CHARS)
        throw new IllegalArgumentException(
            "every secret in TIDINGS_SECRET must have at least " + MIN_SECRET_CHARS
                + " characters (several are separated by commas, the first signing)");
      keys.add(SigningKey.of(one));
    }
    return new TokenCodec(keys);
  }

  public String encode(MessageToken token) {
    Objects.requireNonNull(token, "token");
    SigningKey signer = keys.getFirst();
    var out = new TokenBytes.Writer();
    int version = token.locale().isPresent()
        ? VERSION_WITH_LOCALE
        : token.arm() == 0 ? VERSION : VERSION_WITH_ARM;
    out.oneByte(version);
    out.oneByte(signer.id());
    token.message().write(out);
    out.varint(Duration.between(EPOCH, token.issuedAt()).toMinutes());
    out.oneByte(token.slots());
    if (version == VERSION_WITH_ARM) out.varint(token.arm());
    if (version == VERSION_WITH_LOCALE) {
      out.varint(token.arm());
      byte[] tag = token.locale().orElseThrow().toLanguageTag().getBytes(US_ASCII);
      out.oneByte(tag.length);
      for (byte b : tag) out.oneByte(b);
    }
    byte[] body = out.toByteArray();
    byte[] signed = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(signer.mac(body), 0, signed, body.length, MAC_BYTES);
    return ENCODER.encodeToString(signed);
  }

  public Verdict decode(String text) {
    if (text.isEmpty() || text.length() > MAX_TOKEN_CHARS) return refused(Reason.MALFORMED);
    byte[] signed;
    try {
      signed = DECODER.decode(text);
    } catch (IllegalArgumentException e) {
      return refused(Reason.MALFORMED);
    }
    // base64 leaves spare bits in the last character: only the canonical spelling is the token
    if (signed.length < 2 + MAC_BYTES || !ENCODER.encodeToString(signed).equals(text))
      return refused(Reason.MALFORMED);
    int version = signed[0] & 0xff;
    if (version < VERSION || version > VERSION_WITH_LOCALE) return refused(Reason.MALFORMED);
    int keyId = signed[1] & 0xff;
    byte[] body = Arrays.copyOf(signed, signed.length - MAC_BYTES);
    byte[] mac = Arrays.copyOfRange(signed, body.length, signed.length);
    boolean knownKey = false;
    for (SigningKey key : keys) {
      if (key.id() != keyId) continue;
      knownKey = true;
      if (MessageDigest.isEqual(Arrays.copyOf(key.mac(body), MAC_BYTES), mac)) return read(body);
    }
    return refused(knownKey ? Reason.FORGED : Reason.UNKNOWN_KEY);
  }

  private static Verdict read(byte[] body) {
    try {
      var in = new TokenBytes.Reader(body);
      int version = in.oneByte();
      in.oneByte(); // key id
      MessageId message = MessageId.read(in);
      long minutes = in.varint();
      int slots = in.oneByte();
      long arm = version >= VERSION_WITH_ARM ? in.varint() : 0;
      if (version == VERSION_WITH_ARM && arm < 1) return refused(Reason.MALFORMED);
      if (arm < 0 || arm > MessageToken.MAX_ARM) return refused(Reason.MALFORMED);
      Optional<Locale> locale = Optional.empty();
      if (version == VERSION_WITH_LOCALE) {
        int length = in.oneByte();
        if (length < 1 || length > MessageToken.MAX_LOCALE_CHARS) return refused(Reason.MALFORMED);
        var tag = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
          char c = (char) in.oneByte();
          if (!(Character.isLetterOrDigit(c) && c < 128) && c != '-')
            return refused(Reason.MALFORMED);
          tag.append(c);
        }
        locale = Optional.of(Locale.forLanguageTag(tag.toString()));
      }
      if (!in.atEnd()) return refused(Reason.MALFORMED);
      return new Verdict.Valid(new MessageToken(
          message, EPOCH.plus(Duration.ofMinutes(minutes)), slots, (int) arm, locale));
    } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
      // signed by us, yet unreadable (a token of a later version, or minutes past any instant)
      return refused(Reason.MALFORMED);
    }
  }

  private static Verdict refused(Reason reason) {
    return new Verdict.Refused(reason);
  }

  /** One secret's token key: derived from it, so the secret itself signs nothing else by accident. */
  private record SigningKey(int id, Mac prototype) {
    static SigningKey of(String secret) {
      byte[] key = sha256("tidings token key\0" + secret);
      int id = sha256("tidings token key id\0" + secret)[0] & 0xff;
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return new SigningKey(id, mac);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
      }
    }

    byte[] mac(byte[] body) {
      try {
        // a Mac is not thread-safe; a clone of an initialised one skips the key schedule
        Mac mac = (Mac) prototype.clone();
        return mac.doFinal(body);
      } catch (CloneNotSupportedException e) {
        throw new IllegalStateException("the JDK's HmacSHA256 can be cloned", e);
      }
    }

    private static byte[] sha256(String text) {
      try {
        return MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("SHA-256 is part of every JDK", e);
      }
    }
  }
}
