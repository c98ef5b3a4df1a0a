package dev.tidings.imports;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The parsing side of an import: encodes valid rows as COPY text into an in-memory chunk of at most
 * {@code chunkRows} rows, remembering each row's line and whether a last-wins key repeats in the chunk.
 */
final class ChunkEncoder<T> {
  private final Staging<T> staging;
  private final Instant now;
  private final int chunkRows;
  private final Set<String> keys = new HashSet<>();
  private final Bytes bytes = new Bytes();
  private final CopyRowWriter writer = new CopyRowWriter(bytes);
  private long[] lines = new long[16];
  private int rows;
  private boolean duplicateKeys;

  ChunkEncoder(Staging<T> staging, Instant now, int chunkRows) {
    this.staging = staging;
    this.now = now;
    this.chunkRows = chunkRows;
  }

  /** Encodes one valid row; returns the chunk when this row filled it, otherwise null. */
  @Nullable Chunk write(T row, long line) throws IOException {
    staging.write(row, now, writer);
    writer.endRow();
    if (rows == lines.length) lines = Arrays.copyOf(lines, Math.min(chunkRows, rows * 2));
    lines[rows++] = line;
    String key = staging.key(row);
    if (key != null && !keys.add(key)) duplicateKeys = true;
    return rows >= chunkRows ? finish() : null;
  }

  /** The rows encoded since the last chunk, if any, as a chunk of their own. */
  @Nullable Chunk finish() throws IOException {
    if (rows == 0) return null;
    writer.flushBuffer();
    var chunk =
        new Chunk(bytes.take(), bytes.size, Arrays.copyOf(lines, rows), rows, duplicateKeys);
    bytes.size = 0;
    rows = 0;
    duplicateKeys = false;
    keys.clear();
    return chunk;
  }

  /** A growable byte array handed over whole to the merger (which then owns it), never copied. */
  private static final class Bytes extends OutputStream {
    private byte[] data = new byte[256 * 1024];
    private int size;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] source, int offset, int length) {
      if (size + length > data.length)
        data = Arrays.copyOf(data, Math.max(data.length * 2, size + length));
      System.arraycopy(source, offset, data, size, length);
      size += length;
    }

    /** The next chunk gets the same capacity, so it does not grow (and copy) its way up again. */
    byte[] take() {
      byte[] taken = data;
      data = new byte[taken.length];
      return taken;
    }
  }
}
