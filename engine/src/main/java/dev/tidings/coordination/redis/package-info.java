/**
 * The coordination ports on one Redis shared by many nodes (Lettuce, Lua scripts): one shared pipelined
 * connection for commands and, for compute-once wake-ups, one pub/sub connection per node.
 */
@NullMarked
package dev.tidings.coordination.redis;

import org.jspecify.annotations.NullMarked;
