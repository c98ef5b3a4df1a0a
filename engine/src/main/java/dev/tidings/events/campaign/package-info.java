/** What the campaigns tell: a run was handed over to sending, and a run completed. */
@NullMarked
package dev.tidings.events.campaign;

import org.jspecify.annotations.NullMarked;
