/** The read API over activity aggregates. */
@NullMarked
package dev.tidings.web.aggregate;

import org.jspecify.annotations.NullMarked;
