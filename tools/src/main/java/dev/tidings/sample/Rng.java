package dev.tidings.sample;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Randomness addressed by (seed, stream, row): any row can be regenerated on its own, which is what
 * lets events point at products and users without anyone holding them in memory.
 */
final class Rng {
  static final long PRODUCT = 0x5052_4f44L;
  static final long SUBSCRIBER = 0x5355_4253L;
  static final long AFFINITY = 0x4146_464eL;
  static final long FOLLOW = 0x464f_4c4cL;
  static final long EVENT = 0x4556_4e54L;
  static final long BRAND_ORDER = 0x4252_4e44L;

  private Rng() {}

  static SplittableRandom of(long seed, long stream, long row) {
    return new SplittableRandom(mix(mix(seed ^ stream * 0x9E37_79B9_7F4A_7C15L) + row));
  }

  /** SplitMix64's finaliser: neighbouring rows get unrelated seeds. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }

  static <T> T pick(SplittableRandom random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  /**
   * A Zipf-like rank in [0, n): rank r is drawn with probability about 1/(r+1), so a few ranks
   * dominate. Inverse CDF of the continuous approximation, O(1) for any n.
   */
  static int zipf(SplittableRandom random, int n) {
    if (n <= 1) return 0;
    int rank = (int) Math.exp(random.nextDouble() * Math.log(n + 1.0)) - 1;
    return Math.clamp(rank, 0, n - 1);
  }

  /** A stable hash of bytes (FNV-1a, then mixed): String.hashCode is too weak for colours from ids. */
  static int hash(byte[] bytes) {
    long h = 0xcbf2_9ce4_8422_2325L;
    for (byte b : bytes) h = (h ^ (b & 0xff)) * 0x100_0000_01b3L;
    return (int) mix(h);
  }
}
