/** The product catalogue: products by id, pages in id order, bulk import. */
@NullMarked
package dev.tidings.catalog;

import org.jspecify.annotations.NullMarked;
