package dev.tidings.message;

import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * One email: campaign {@code campaignId}'s run {@code runId} to subscriber {@code subscriberId}. Its
 * {@link #text()} is what the {@code X-Tidings-Message-Id} header carries and what receipts correlate
 * on: compact, URL- and header-safe, and the same for the same email however often it is written.
 *
 * @param subscriberId 1-64 characters of A-Z a-z 0-9 . _ : - (the audience's id rule)
 */
public record MessageId(long campaignId, long runId, String subscriberId) {
  /**
   * The run of emails that are no campaign run's (runs are numbered from 1): previews and test sends.
   * Their opens, clicks and receipts are counted in no funnel.
   */
  public static final long UNCOUNTED_RUN = 0;

  private static final Base64.Encoder TEXT = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder FROM_TEXT = Base64.getUrlDecoder();

  public MessageId {
    Objects.requireNonNull(subscriberId, "subscriberId");
    if (campaignId < 0) throw new IllegalArgumentException("campaignId must not be negative");
    if (runId < 0) throw new IllegalArgumentException("runId must not be negative");
    if (!SubscriberIds.valid(subscriberId))
      throw new IllegalArgumentException(
          "subscriberId must be 1-64 characters of A-Z a-z 0-9 . _ : - but was '" + subscriberId
              + "'");
  }

  /** Whether this email belongs to a run, so that what happens to it is counted. */
  public boolean counted() {
    return runId != UNCOUNTED_RUN;
  }

  /** Base64url of the id's bytes: campaign and run as varints, then the subscriber. */
  public String text() {
    var out = new TokenBytes.Writer();
    write(out);
    return TEXT.encodeToString(out.toByteArray());
  }

  /** The id {@code text} spells, or empty when it spells none (a header from elsewhere, a typo). */
  public static Optional<MessageId> parse(String text) {
    try {
      var in = new TokenBytes.Reader(FROM_TEXT.decode(text));
      MessageId id = read(in);
      return in.atEnd() ? Optional.of(id) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  void write(TokenBytes.Writer out) {
    out.varint(campaignId);
    out.varint(runId);
    SubscriberIds.write(subscriberId, out);
  }

  /** Throws IllegalArgumentException when the bytes hold no id. */
  static MessageId read(TokenBytes.Reader in) {
    long campaign = in.varint();
    long run = in.varint();
    return new MessageId(campaign, run, SubscriberIds.read(in));
  }

  @Override
  public String toString() {
    return text();
  }
}
