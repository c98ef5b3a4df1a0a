/** The HTTP routes of the activity capability; shared HTTP parts (errors, JSON bodies, filters) are in {@code dev.tidings.web}. */
@NullMarked
package dev.tidings.web.activity;

import org.jspecify.annotations.NullMarked;
