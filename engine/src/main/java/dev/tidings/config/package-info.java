/** Settings read once from the environment, validated, then immutable; secrets masked. */
@NullMarked
package dev.tidings.config;

import org.jspecify.annotations.NullMarked;
