/**
 * Open-time product slots (seed 01): an email's k slot images are chosen when it is first opened,
 * once across every node, and kept for good, so every slot, every later open and every click show
 * the same k distinct products.
 */
@NullMarked
package dev.tidings.opentime;

import org.jspecify.annotations.NullMarked;
