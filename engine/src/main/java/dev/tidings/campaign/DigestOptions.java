package dev.tidings.campaign;

/**
 * What makes a campaign a digest: each email tells its subscriber what they have not been told of the
 * last {@code lookBackDays} days (content of what they follow, and nearby), and marks it told once sent.
 * A subscriber with fewer than {@code minimum} things to tell gets no email.
 */
public record DigestOptions(int lookBackDays, int minimum) {
  public static final int DEFAULT_LOOK_BACK_DAYS = 7;
  public static final int MAX_LOOK_BACK_DAYS = 30;
  public static final int MAX_MINIMUM = 1_000;

  public DigestOptions {
    if (lookBackDays < 1 || lookBackDays > MAX_LOOK_BACK_DAYS)
      throw new IllegalArgumentException(
          "digest.lookBackDays must be within 1.." + MAX_LOOK_BACK_DAYS);
    if (minimum < 1 || minimum > MAX_MINIMUM)
      throw new IllegalArgumentException("digest.minimum must be within 1.." + MAX_MINIMUM);
  }

  public static DigestOptions defaults() {
    return new DigestOptions(DEFAULT_LOOK_BACK_DAYS, 1);
  }
}
