package dev.tidings.coordination.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A Lua script run by its SHA1 (EVALSHA). A node may not have it: Redis forgets scripts on restart or
 * SCRIPT FLUSH, and in a cluster each node has its own script cache, so a replica promoted by a
 * failover, or a node that took over slots, may never have seen it. Then the script is sent in full
 * with EVAL, which goes to the same node as the EVALSHA (the same keys route it) and leaves the script
 * cached there; NOSCRIPT means it did not run, so running it then is safe.
 */
final class LuaScript {
  private final String source;
  private final String sha;

  LuaScript(String source) {
    this.source = source;
    this.sha = sha1(source);
  }

  String source() {
    return source;
  }

  @SuppressWarnings(
      "TypeParameterUnusedInFormals") // as Lettuce's evalsha: the output type decides T
  <T> T run(Commands redis, ScriptOutputType type, String[] keys, String... args) {
    try {
      return redis.sync().evalsha(sha, type, keys, args);
    } catch (RedisNoScriptException e) {
      redis.scriptLoads().increment();
      return redis.sync().eval(source, type, keys, args);
    }
  }

  /**
   * As {@link #run}, without blocking: the reply (or the failure) completes the returned future on
   * Lettuce's I/O thread, so whatever is chained to it must be quick.
   */
  @SuppressWarnings(
      "TypeParameterUnusedInFormals") // as Lettuce's evalsha: the output type decides T
  <T> CompletableFuture<T> runAsync(
      Commands redis, ScriptOutputType type, String[] keys, String... args) {
    CompletableFuture<T> first =
        redis.async().<T>evalsha(sha, type, keys, args).toCompletableFuture();
    return first.exceptionallyCompose(failure -> {
      Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
      if (!(cause instanceof RedisNoScriptException)) return CompletableFuture.failedFuture(cause);
      redis.scriptLoads().increment();
      return redis.async().<T>eval(source, type, keys, args).toCompletableFuture();
    });
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-1", e);
    }
  }
}
