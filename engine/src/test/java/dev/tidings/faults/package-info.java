/**
 * The fault suite: each scenario runs Tidings on the clustered (or private) servers, injects one fault
 * mid-work (a server node killed, a worker killed or paused, the network cut), records what was
 * acknowledged to clients and what ended up stored, and checks it with an oracle: everything
 * acknowledged is stored exactly once, every recipient has one email or is reported unknown, every
 * open-time slot list is computed once. Each scenario's outcome goes to {@link
 * dev.tidings.faults.FaultReport}, which keeps the table of the last run in {@code
 * target/faults/reliability.md} (the source of docs/reliability.md).
 *
 * <p>Run all of it with {@code ./mvnw verify -Pfaults} (only these scenarios); {@code ./mvnw verify}
 * runs them with the rest of the suite.
 */
@NullMarked
package dev.tidings.faults;

import org.jspecify.annotations.NullMarked;
