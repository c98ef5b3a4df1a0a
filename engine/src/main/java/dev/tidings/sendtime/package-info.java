/**
 * Send-time optimisation: when in a campaign's window each subscriber's email should arrive. It owns
 * people's opens per subscriber and hour of the week ({@link dev.tidings.sendtime.OpenHours}, fed by
 * the funnel's first human opens) and the planner that turns them, shrunk towards the whole
 * audience's hours, into an hour per recipient ({@link dev.tidings.sendtime.SendTimePlanner}), with a
 * deterministic hold-out that is sent at once so the effect is measured.
 */
@NullMarked
package dev.tidings.sendtime;

import org.jspecify.annotations.NullMarked;
