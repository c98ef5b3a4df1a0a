/** A believable sample shop written as bulk-import files, the same bytes for the same spec. */
@NullMarked
package dev.tidings.sample;

import org.jspecify.annotations.NullMarked;
