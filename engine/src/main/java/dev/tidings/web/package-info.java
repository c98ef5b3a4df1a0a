/** The HTTP edge: route groups, filters, error mapping and JSON bodies on Helidon. */
@NullMarked
package dev.tidings.web;

import org.jspecify.annotations.NullMarked;
