/** The HTTP edge of journeys: their definitions and versions under {@code /api/v1/journeys}. */
@NullMarked
package dev.tidings.web.journeys;

import org.jspecify.annotations.NullMarked;
