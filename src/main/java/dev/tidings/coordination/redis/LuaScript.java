package dev.tidings.coordination.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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
