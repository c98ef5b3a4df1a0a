/**
 * The installation's nodes as a whole: which are running, in which role and version. Owns the table
 * {@code nodes}.
 */
@NullMarked
package dev.tidings.cluster;

import org.jspecify.annotations.NullMarked;
