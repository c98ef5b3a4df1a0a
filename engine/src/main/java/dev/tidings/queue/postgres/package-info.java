/**
 * Work queues in PostgreSQL tables: leases, {@code SKIP LOCKED} claims of whole batches from an index of
 * waiting rows, set-based settlements, LISTEN/NOTIFY wake-ups at most one per queue per interval.
 */
@NullMarked
package dev.tidings.queue.postgres;

import org.jspecify.annotations.NullMarked;
