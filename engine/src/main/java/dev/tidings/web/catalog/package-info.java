/** The HTTP routes of the catalog capability; shared HTTP parts (errors, JSON bodies, filters) are in {@code dev.tidings.web}. */
@NullMarked
package dev.tidings.web.catalog;

import org.jspecify.annotations.NullMarked;
