/** Work queues in PostgreSQL tables: leases, {@code SKIP LOCKED} claims, LISTEN/NOTIFY wake-ups. */
@NullMarked
package dev.tidings.queue.postgres;

import org.jspecify.annotations.NullMarked;
