/** The HTTP routes of the audience capability; shared HTTP parts (errors, JSON bodies, filters) are in {@code dev.tidings.web}. */
@NullMarked
package dev.tidings.web.audience;

import org.jspecify.annotations.NullMarked;
