package dev.tidings.queue.rabbitmq;

import java.util.HashMap;
import java.util.Map;

/**
 * AMQP headers: the message's own string headers plus Tidings' bookkeeping under the
 * {@code x-tidings-} prefix, which is therefore reserved and stripped before a handler sees them.
 */
final class TidingsHeaders {
  static final String PREFIX = "x-tidings-";
  static final String DELIVERIES = PREFIX + "deliveries";
  static final String MAX_DELIVERIES = PREFIX + "max-deliveries";
  static final String REASON = PREFIX + "reason";
  static final String DEAD_AT = PREFIX + "dead-at";

  private TidingsHeaders() {}

  static Map<String, Object> amqp(Map<String, String> headers, Map<String, Object> bookkeeping) {
    var amqp = new HashMap<String, Object>();
    headers.forEach((key, value) -> {
      if (!key.startsWith(PREFIX)) amqp.put(key, value);
    });
    amqp.putAll(bookkeeping);
    return amqp;
  }

  static Map<String, String> user(Map<String, Object> amqp) {
    if (amqp == null) return Map.of();
    var headers = new HashMap<String, String>();
    amqp.forEach((key, value) -> {
      if (!key.startsWith(PREFIX) && value != null)
        headers.put(key, value.toString()); // LongString.toString() is UTF-8
    });
    return Map.copyOf(headers);
  }

  static int integer(Map<String, Object> amqp, String key, int fallback) {
    return amqp != null && amqp.get(key) instanceof Number number ? number.intValue() : fallback;
  }

  static String text(Map<String, Object> amqp, String key, String fallback) {
    if (amqp == null) return fallback;
    Object value = amqp.get(key);
    return value == null ? fallback : value.toString();
  }

  static long number(Map<String, Object> amqp, String key, long fallback) {
    if (amqp == null) return fallback;
    return amqp.get(key) instanceof Number number ? number.longValue() : fallback;
  }
}
