package dev.tidings.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Huge import content made cheaply, never held whole: a gzip of many members (each member compressed
 * once and repeated; a gzip reader reads concatenated members as one stream), and a plain stream that
 * generates its text as it is read.
 */
public final class HostileContent {
  public static final int MIB = 1024 * 1024;

  private HostileContent() {}

  /**
   * {@code first}, then {@code times} MiB of {@code fill}, then {@code last}, each a gzip member of
   * its own: the MiB of fill is compressed once, so the result is {@code times} times its compressed
   * size.
   */
  public static byte[] gzipMembers(String first, Fill fill, int times, String last) {
    byte[] head = gzip(first.getBytes(StandardCharsets.UTF_8));
    byte[] member = gzip(fill.mebibyte());
    byte[] tail = gzip(last.getBytes(StandardCharsets.UTF_8));
    var out = new ByteArrayOutputStream(head.length + member.length * times + tail.length);
    out.writeBytes(head);
    for (int i = 0; i < times; i++) out.writeBytes(member);
    out.writeBytes(tail);
    return out.toByteArray();
  }

  /** 4 GiB of line breaks after {@code first}, in about 4 MiB: a compression bomb. */
  public static byte[] gzipBomb(String first) {
    return gzipMembers(first, Fill.LINE_BREAKS, 4096, "");
  }

  /** {@code first}, then {@code fillBytes} of {@code fill}, then {@code last}, generated as read. */
  public static InputStream generated(String first, Fill fill, long fillBytes, String last) {
    return new Generated(
        first.getBytes(StandardCharsets.UTF_8),
        fill.mebibyte(),
        fillBytes,
        last.getBytes(StandardCharsets.UTF_8));
  }

  /** What a huge part of the content is made of. */
  public enum Fill {
    /** Nothing but line breaks: deflate's best case, some 1,000 times smaller. */
    LINE_BREAKS,
    /**
     * Text that compresses some 40 times, as well as repetitive real data at most: 63 x's and a
     * letter that changes, over and over.
     */
    TEXT,
    /** Empty XML elements, {@code <a/>}: deflate's best case too, but no run of text. */
    EMPTY_ELEMENTS;

    byte[] mebibyte() {
      byte[] bytes = new byte[MIB];
      // the same letters every time, and no short period for deflate to find
      var letters = new SplittableRandom(64);
      for (int i = 0; i < MIB; i++) {
        bytes[i] = switch (this) {
          case LINE_BREAKS -> (byte) '\n';
          case TEXT -> i % 64 == 63 ? (byte) ('a' + letters.nextInt(26)) : (byte) 'x';
          case EMPTY_ELEMENTS -> (byte) "<a/>".charAt(i % 4);
        };
      }
      return bytes;
    }
  }

  private static byte[] gzip(byte[] bytes) {
    var out = new ByteArrayOutputStream();
    try (var zipped = new GZIPOutputStream(out)) {
      zipped.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static final class Generated extends InputStream {
    private final byte[] first;
    private final byte[] fill;
    private final long fillBytes;
    private final byte[] last;
    private long position;

    Generated(byte[] first, byte[] fill, long fillBytes, byte[] last) {
      this.first = first;
      this.fill = fill;
      this.fillBytes = fillBytes;
      this.last = last;
    }

    private long length() {
      return first.length + fillBytes + last.length;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      if (length == 0) return 0;
      if (position >= length()) return -1;
      int n = 0;
      while (n < length && position < length()) {
        int copied;
        if (position < first.length) {
          copied = copy(first, (int) position, buffer, offset + n, length - n);
        } else if (position < first.length + fillBytes) {
          long inFill = position - first.length;
          int from = (int) (inFill % fill.length);
          int most = (int) Math.min(length - n, fillBytes - inFill);
          copied = copy(fill, from, buffer, offset + n, most);
        } else {
          int from = (int) (position - first.length - fillBytes);
          copied = copy(last, from, buffer, offset + n, length - n);
        }
        n += copied;
        position += copied;
      }
      return n;
    }

    private static int copy(byte[] from, int start, byte[] to, int at, int most) {
      int count = Math.min(most, from.length - start);
      System.arraycopy(from, start, to, at, count);
      return count;
    }
  }
}
