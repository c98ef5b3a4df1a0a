/**
 * The conversion optimiser (seed 05): an item's configurations (image, title, price display, position),
 * one of them current; impressions and conversions counted per configuration; and the daily optimisation
 * that tests each challenger against the current configuration and names the items whose best
 * configuration changed. The statistics are in {@link dev.tidings.optimize.stats}.
 */
@NullMarked
package dev.tidings.optimize;

import org.jspecify.annotations.NullMarked;
