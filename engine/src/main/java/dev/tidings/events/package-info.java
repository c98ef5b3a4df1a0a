/**
 * Events: the one way a capability tells the others, and the shop's own systems, what it did.
 *
 * <p>An emitter writes its events with {@link dev.tidings.events.EventOutbox} in its own transaction
 * (so nothing is told that was not committed, and nothing committed is lost); the
 * {@link dev.tidings.events.EventRelay} moves them into the {@code event_log}, where each takes its
 * position, and onto one work queue per {@link dev.tidings.events.EventListener}. Listeners live in
 * the capability that listens and apply each event in their own transaction, once
 * ({@link dev.tidings.events.EventInbox}).
 *
 * <p>The event records themselves live in one sub-package per emitting capability
 * ({@code events.delivery}, {@code events.audience}, ...): a capability's published language, which a
 * listener can depend on without depending on the emitter (the delivery funnel uses the campaigns,
 * which use the send-time open hours, which listen to the funnel's opens). Only the emitter writes
 * them ({@code EventOwnershipTest}).
 */
@NullMarked
package dev.tidings.events;

import org.jspecify.annotations.NullMarked;
