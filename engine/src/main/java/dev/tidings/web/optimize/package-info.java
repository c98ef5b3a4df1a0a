/** The HTTP edge of the conversion optimiser: item configurations, their counts, and the day's changes. */
@NullMarked
package dev.tidings.web.optimize;

import org.jspecify.annotations.NullMarked;
