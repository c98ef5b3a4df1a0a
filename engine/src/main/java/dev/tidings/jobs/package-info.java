/**
 * Background jobs: what a node does on a schedule (probes, polls, expiry, feeds), each a {@link
 * dev.tidings.jobs.BackgroundJob} that a capability publishes and the node's {@link
 * dev.tidings.jobs.BackgroundJobs} runs, elects, counts and stops.
 */
@NullMarked
package dev.tidings.jobs;

import org.jspecify.annotations.NullMarked;
