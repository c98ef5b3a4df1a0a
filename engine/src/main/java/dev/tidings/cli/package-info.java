/**
 * The command line ({@code tidings serve}, {@code demo}, {@code import}, {@code bench}, {@code
 * migrate}).
 */
@NullMarked
package dev.tidings.cli;

import org.jspecify.annotations.NullMarked;
