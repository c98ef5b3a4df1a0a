package dev.tidings.imports;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Gunzips import content, every member of it: a broken gzip layer is a {@link BulkImporter.BrokenGzip}
 * rather than an I/O failure, and content that expands more than {@link ImportLimits#MAX_GZIP_EXPANSION}
 * times the compressed bytes read so far (once past {@link ImportLimits#GZIP_UNCHECKED_BYTES}) is a
 * {@link CompressionBomb}. The compressed bytes are counted as the inflater takes them, its read-ahead
 * included, which only makes the ratio look smaller than it is.
 */
final class CheckedGunzip extends FilterInputStream {
  private final Counted compressed;
  private long expanded;

  private CheckedGunzip(InputStream gunzipped, Counted compressed) {
    super(gunzipped);
    this.compressed = compressed;
  }

  /**
   * @throws BulkImporter.BrokenGzip when the content does not start with a valid gzip header
   */
  static CheckedGunzip of(InputStream compressed) throws IOException {
    var counted = new Counted(compressed);
    try {
      return new CheckedGunzip(new GZIPInputStream(counted, 64 * 1024), counted);
    } catch (ZipException | EOFException e) {
      throw new BulkImporter.BrokenGzip(e);
    }
  }

  @Override
  public int read() throws IOException {
    int c;
    try {
      c = super.read();
    } catch (ZipException | EOFException e) {
      throw new BulkImporter.BrokenGzip(e);
    }
    if (c >= 0) expanded(1);
    return c;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n;
    try {
      n = super.read(buffer, offset, length);
    } catch (ZipException | EOFException e) {
      throw new BulkImporter.BrokenGzip(e);
    }
    if (n > 0) expanded(n);
    return n;
  }

  /** Skipped bytes are gunzipped all the same: read, so that they count. */
  @Override
  public long skip(long count) throws IOException {
    byte[] discarded = new byte[(int) Math.min(8192, Math.max(0, count))];
    long skipped = 0;
    while (skipped < count) {
      int n = read(discarded, 0, (int) Math.min(discarded.length, count - skipped));
      if (n < 0) break;
      skipped += n;
    }
    return skipped;
  }

  private void expanded(int bytes) {
    expanded += bytes;
    if (expanded > ImportLimits.GZIP_UNCHECKED_BYTES
        && expanded > ImportLimits.MAX_GZIP_EXPANSION * Math.max(1, compressed.count)) {
      throw new CompressionBomb(expanded, compressed.count);
    }
  }

  /** The compressed bytes the inflater has taken. */
  private static final class Counted extends FilterInputStream {
    private long count;

    Counted(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int c = super.read();
      if (c >= 0) count++;
      return c;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) count += n;
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      if (skipped > 0) count += skipped;
      return skipped;
    }
  }
}
