package dev.tidings.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request body read to its end (see {@link Uploads}): in memory when small, else in a file that
 * {@link #close()} deletes. A body that breaks off (the client went away) or passes its limit leaves
 * no file behind.
 */
public final class SpooledBody implements AutoCloseable {
  /** Bodies up to this size stay in memory: most event batches and small imports. */
  static final int IN_MEMORY = 256 * 1024;

  private static final Logger log = LoggerFactory.getLogger(SpooledBody.class);

  private final byte[] small;
  private final Optional<Path> file;

  private SpooledBody(byte[] small, Optional<Path> file) {
    this.small = small;
    this.file = file;
  }

  /**
   * Reads {@code limited} (which fails with {@link BodyTooLargeException} past {@code maxBytes}) to
   * its end: 413 naming the limit when it is larger.
   */
  static SpooledBody read(InputStream limited, long maxBytes, Path directory) {
    Path file = null;
    try (InputStream in = limited) {
      byte[] first = in.readNBytes(IN_MEMORY + 1);
      if (first.length <= IN_MEMORY) return new SpooledBody(first, Optional.empty());
      Files.createDirectories(directory);
      file = Files.createTempFile(directory, "upload-", ".part");
      try (OutputStream out = Files.newOutputStream(file)) {
        out.write(first);
        in.transferTo(out);
      }
      return new SpooledBody(new byte[0], Optional.of(file));
    } catch (BodyTooLargeException e) {
      delete(file);
      throw ApiProblem.tooLarge(maxBytes);
    } catch (IOException e) {
      delete(file);
      throw new UncheckedIOException("the request body could not be read to its end", e);
    } catch (RuntimeException | Error e) {
      delete(file);
      throw e;
    }
  }

  /** The body from its first byte; each call reads it anew. */
  public InputStream open() throws IOException {
    return file.isPresent() ? Files.newInputStream(file.get()) : new ByteArrayInputStream(small);
  }

  /** Deletes the file the body waited in, if it had one. */
  @Override
  public void close() {
    file.ifPresent(SpooledBody::delete);
  }

  private static void delete(@Nullable Path file) {
    if (file == null) return;
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.warn("could not delete the upload body {}", file, e);
    }
  }
}
