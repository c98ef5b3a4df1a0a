/** Benchmarks run from the command line (bulk import throughput against raw COPY floors). */
@NullMarked
package dev.tidings.bench;

import org.jspecify.annotations.NullMarked;
