/** The coordination ports kept in this JVM's memory: the single-node embedded default. */
@NullMarked
package dev.tidings.coordination.inprocess;

import org.jspecify.annotations.NullMarked;
