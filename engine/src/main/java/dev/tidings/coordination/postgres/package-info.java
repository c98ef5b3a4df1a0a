/**
 * The countdown port on PostgreSQL tables (V3__countdown.sql): durable across restarts of Redis, of
 * the nodes and of the embedded database, with fences from a sequence that never goes back.
 */
@NullMarked
package dev.tidings.coordination.postgres;

import org.jspecify.annotations.NullMarked;
