/**
 * The entry point ({@code Main}) and the few types every capability shares: the exception roots and
 * {@code WebUrl}.
 */
@NullMarked
package dev.tidings;

import org.jspecify.annotations.NullMarked;
