package dev.tidings;

import java.nio.charset.StandardCharsets;

/**
 * A share of people chosen by a stable hash of a key, so the same person is chosen the same way on
 * every node and every time (a hold-out, an A/B split): a 64-bit FNV-1a hash of the key, mixed with
 * splitmix64's finaliser (FNV's low bits alone are poorly spread) and mapped onto [0, 1). Each use
 * salts its key with its own name, so two shares of the same people are independent.
 */
public final class StableShare {
  private StableShare() {}

  /** Where {@code key} falls in [0, 1). */
  public static double unit(String key) {
    long hash = 0xcbf29ce484222325L;
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= 0x100000001b3L;
    }
    hash ^= hash >>> 30;
    hash *= 0xbf58476d1ce4e5b9L;
    hash ^= hash >>> 27;
    hash *= 0x94d049bb133111ebL;
    hash ^= hash >>> 31;
    return (hash >>> 11) * 0x1.0p-53;
  }

  /** Whether {@code key} is within the first {@code share} (0..1) of the people. */
  public static boolean within(String key, double share) {
    return share > 0 && unit(key) < share;
  }
}
