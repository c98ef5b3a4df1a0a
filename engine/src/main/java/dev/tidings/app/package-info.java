/** Wiring: one running node with the adapters its settings choose, its HTTP server and its logging. */
@NullMarked
package dev.tidings.app;

import org.jspecify.annotations.NullMarked;
