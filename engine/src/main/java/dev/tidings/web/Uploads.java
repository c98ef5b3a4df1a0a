package dev.tidings.web;

import io.helidon.webserver.http.ServerRequest;
import java.nio.file.Path;

/**
 * How the routes that take a whole file (bulk imports, events as JSON Lines) receive it: the body is
 * read to its end before the work that uses it begins, so a client that trickles its body holds no
 * database connection while it does; up to {@value SpooledBody#IN_MEMORY} bytes wait in memory,
 * a larger body in a file of {@code directory} that is deleted when the work ends, however it ends.
 *
 * @param maxBytes the largest body taken ({@code TIDINGS_MAX_IMPORT_BYTES}); past it, 413 naming it
 * @param directory where larger bodies wait: {@code TIDINGS_DATA_DIR/uploads} on a node (created when
 *     missing), as the product feed's fetched bodies wait under the data directory
 */
public record Uploads(long maxBytes, Path directory) {
  /** Under the data directory: where a node's larger upload bodies wait. */
  public static final String DIRECTORY = "uploads";

  public Uploads {
    if (maxBytes < 1) throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes);
  }

  /** A node's: the bodies wait under {@code dataDirectory}/{@value #DIRECTORY}. */
  public static Uploads underDataDirectory(Path dataDirectory, long maxBytes) {
    return new Uploads(maxBytes, dataDirectory.resolve(DIRECTORY));
  }

  /** Bodies wait in {@code java.io.tmpdir}: for routes built outside a node (tests, benchmarks). */
  public static Uploads inTemporaryDirectory(long maxBytes) {
    return new Uploads(maxBytes, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** The request's body read to its end: 413 past {@link #maxBytes}; the caller closes it. */
  public SpooledBody receive(ServerRequest request) {
    return SpooledBody.read(Bodies.limited(request, maxBytes), maxBytes, directory);
  }
}
