package dev.tidings.events;

import java.util.List;
import java.util.function.Function;

/**
 * An event every node hears, to drop what it holds in memory, rather than work for one listener to do
 * once: told at commit, in commit order, by the emitter's own statements. It is neither logged nor
 * retried, so it must only ever be a hint: a node that was not listening missed it for good, and is
 * told {@link Listener#missed()} whenever that may have happened, to treat all it holds as stale.
 *
 * <p>Work that must happen once per event (a count, an email, a webhook) is an {@link EventListener}
 * on the relayed log instead.
 *
 * @param channel the PostgreSQL channel the emitter's statements notify: lower case and underscores
 * @param decode one notification's lines (after the schema line) into its events; a line it does not
 *     know is dropped, never thrown on
 */
public record Broadcast<E>(String channel, Function<List<String>, List<E>> decode) {
  public Broadcast {
    if (!channel.matches("[a-z_]{1,63}")) throw new IllegalArgumentException("channel " + channel);
  }

  /** What hears a broadcast on a node: one thread, never concurrently. */
  public interface Listener<E> {
    /** Listening (again): whatever was told before may have been missed. */
    void missed();

    /** One event, in commit order with those before it. */
    void heard(E event);
  }
}
