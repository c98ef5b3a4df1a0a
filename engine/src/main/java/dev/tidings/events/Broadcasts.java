package dev.tidings.events;

import dev.tidings.storage.ChangeFeed;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * Where a node hears {@link Broadcast}s: PostgreSQL's NOTIFY on the node's database, one connection
 * of its own per broadcast (the database every node already shares, so a broadcast needs no other
 * server, the embedded default included).
 */
public final class Broadcasts {
  private final Database database;
  private final MeterRegistry metrics;

  public Broadcasts(Database database, MeterRegistry metrics) {
    this.database = database;
    this.metrics = metrics;
  }

  /** A node listening to one broadcast until closed. */
  public interface Listening extends AutoCloseable {
    @Override
    void close();
  }

  /** Starts listening at once; {@link Broadcast.Listener#missed()} comes first. */
  public <E> Listening listen(Broadcast<E> broadcast, Broadcast.Listener<E> listener) {
    ChangeFeed feed = ChangeFeed.start(
        database,
        broadcast.channel(),
        new ChangeFeed.Listener() {
          @Override
          public void lost() {
            listener.missed();
          }

          @Override
          public void changed(List<String> items) {
            for (E event : broadcast.decode().apply(items)) listener.heard(event);
          }
        },
        metrics);
    return feed::close;
  }
}
