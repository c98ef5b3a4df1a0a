/**
 * Offline evaluations of the engine's choices on simulated readers, run by {@code tidings evaluate}:
 * what a choice would have done, with the model it rests on stated beside the figures.
 */
@NullMarked
package dev.tidings.evaluation;

import org.jspecify.annotations.NullMarked;
