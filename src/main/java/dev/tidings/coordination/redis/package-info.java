/** The coordination ports on one Redis shared by many nodes (Lettuce, Lua scripts). */
@NullMarked
package dev.tidings.coordination.redis;

import org.jspecify.annotations.NullMarked;
