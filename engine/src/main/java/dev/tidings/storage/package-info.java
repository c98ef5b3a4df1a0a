/** PostgreSQL: the pooled connection with Tidings' schema, embedded or external. */
@NullMarked
package dev.tidings.storage;

import org.jspecify.annotations.NullMarked;
