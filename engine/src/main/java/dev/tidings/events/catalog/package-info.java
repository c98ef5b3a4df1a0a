/** What the catalogue tells: a product was added, dropped its price, came back in stock or left the feed. */
@NullMarked
package dev.tidings.events.catalog;

import org.jspecify.annotations.NullMarked;
