/**
 * The HTTP routes of events: the log a shop's systems read from any offset ({@code GET
 * /api/v1/events?after=}) and the list of event types.
 */
@NullMarked
package dev.tidings.web.events;

import org.jspecify.annotations.NullMarked;
