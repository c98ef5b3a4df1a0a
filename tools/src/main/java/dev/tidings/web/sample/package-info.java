/** The HTTP routes of the sample capability; shared HTTP parts (errors, JSON bodies, filters) are in {@code dev.tidings.web}. */
@NullMarked
package dev.tidings.web.sample;

import org.jspecify.annotations.NullMarked;
