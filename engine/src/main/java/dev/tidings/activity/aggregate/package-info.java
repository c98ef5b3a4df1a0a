/**
 * Aggregates of activity under typed, self-describing keys: each key names what it counts, for whom,
 * by which aggregation and algorithm, and over which period, so a new aggregation needs no schema.
 */
@NullMarked
package dev.tidings.activity.aggregate;

import org.jspecify.annotations.NullMarked;
