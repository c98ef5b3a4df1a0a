/**
 * Retention: the schedule that removes what outlived its lifetime from the tables that grow with
 * traffic, through the {@link dev.tidings.storage.Expiry} each owner publishes; it never reads a
 * capability's tables itself.
 */
@NullMarked
package dev.tidings.retention;

import org.jspecify.annotations.NullMarked;
