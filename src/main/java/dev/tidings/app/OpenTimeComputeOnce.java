package dev.tidings.app;

import dev.tidings.config.Settings;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.redis.SeedLiteralComputeOnce;

/**
 * The compute-once strategy of the open-time slots, as {@code TIDINGS_OPENTIME_STRATEGY} says: the
 * node's coordination ({@code tidings}, the default), or seed 01's literal Redis commands ({@code
 * seed}, a benchmark baseline only, on {@code TIDINGS_REDIS_URL}).
 */
final class OpenTimeComputeOnce {
  private static final String SEED_KEY_PREFIX = "tidings:seed:";

  private OpenTimeComputeOnce() {}

  static ComputeOnce chosen(Infrastructure infrastructure) {
    Settings settings = infrastructure.settings();
    return switch (settings.openTimeStrategy()) {
      case TIDINGS -> infrastructure.coordination().computeOnce();
      case SEED -> {
        // the settings refuse seed without Redis; this guards a Settings built by hand
        var redisUrl = settings
            .redisUrl()
            .orElseThrow(() -> new IllegalStateException(
                "TIDINGS_OPENTIME_STRATEGY=seed needs TIDINGS_REDIS_URL"));
        yield infrastructure.open(() -> SeedLiteralComputeOnce.connect(redisUrl, SEED_KEY_PREFIX));
      }
    };
  }
}
