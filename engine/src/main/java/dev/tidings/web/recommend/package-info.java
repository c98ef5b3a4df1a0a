/**
 * The HTTP routes of the recommend capability: a user's recommendations and the algorithms' settings;
 * shared HTTP parts (errors, JSON bodies, filters) are in {@code dev.tidings.web}.
 */
@NullMarked
package dev.tidings.web.recommend;

import org.jspecify.annotations.NullMarked;
