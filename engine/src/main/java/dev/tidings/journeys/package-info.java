/**
 * Journeys: email that answers what a customer does. A {@link dev.tidings.journeys.Journey} says what
 * lets a person in (a {@link dev.tidings.journeys.Trigger} on the typed events, and its {@link
 * dev.tidings.journeys.EntryRules}), the {@link dev.tidings.journeys.Step}s each entrant goes through
 * (waits, sends, branches on what they did since, A/B splits) and the goal that takes them out at once.
 * {@link dev.tidings.journeys.Progress} decides, from where a person is and what they did, what happens
 * to them next; it reads nothing and writes nothing, so the same decisions hold on every node and in
 * every test. A share of entrants is held out, chosen by a stable hash, so the lift is measured.
 */
@NullMarked
package dev.tidings.journeys;

import org.jspecify.annotations.NullMarked;
