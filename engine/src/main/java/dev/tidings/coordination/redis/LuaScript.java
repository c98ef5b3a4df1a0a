package dev.tidings.coordination.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A Lua script run by its SHA1 (EVALSHA). Redis forgets scripts on restart or SCRIPT FLUSH; then the
 * script is loaded again and retried once.
 */
final class LuaScript {
  private final String source;
  private final String sha;

  LuaScript(String source) {
    this.source = source;
    this.sha = sha1(source);
  }

  void load(RedisCommands<String, String> redis) {
    redis.scriptLoad(source);
  }

  @SuppressWarnings(
      "TypeParameterUnusedInFormals") // as Lettuce's evalsha: the output type decides T
  <T> T run(
      RedisCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
    try {
      return redis.evalsha(sha, type, keys, args);
    } catch (RedisNoScriptException e) {
      redis.scriptLoad(source);
      return redis.evalsha(sha, type, keys, args);
    }
  }

  /**
   * As {@link #run}, without blocking: the reply (or the failure) completes the returned future on
   * Lettuce's I/O thread, so whatever is chained to it must be quick.
   */
  @SuppressWarnings(
      "TypeParameterUnusedInFormals") // as Lettuce's evalsha: the output type decides T
  <T> CompletableFuture<T> runAsync(
      RedisAsyncCommands<String, String> redis,
      ScriptOutputType type,
      String[] keys,
      String... args) {
    CompletableFuture<T> first = redis.<T>evalsha(sha, type, keys, args).toCompletableFuture();
    return first.exceptionallyCompose(failure -> {
      Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
      if (!(cause instanceof RedisNoScriptException)) return CompletableFuture.failedFuture(cause);
      return redis
          .scriptLoad(source)
          .toCompletableFuture()
          .thenCompose(loaded -> redis.<T>evalsha(sha, type, keys, args).toCompletableFuture());
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
