package dev.tidings.imports;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Lets a parser read at most a given number of bytes between two {@link #renew()} calls, counted as
 * they are read. A parser that holds a whole token in memory before it returns it (the JDK's StAX
 * parser holds a comment, a CDATA section or a tag's attributes whole) can then hold no more than
 * that, whatever the file: the caller renews the budget each time the parser hands an event back.
 */
final class ReadBudget extends FilterInputStream {
  /**
   * The parser asked for more than the budget: unchecked, so that it passes the parser unchanged (the
   * JDK's turns an IOException into a parse error that no longer says which).
   */
  static final class Exhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Exhausted(long limit) {
      super("more than " + limit + " bytes read for one part of the file", null, false, false);
    }
  }

  private final long limit;
  private long left;

  ReadBudget(InputStream in, long limit) {
    super(in);
    if (limit <= 0) throw new IllegalArgumentException("the budget must be positive, got " + limit);
    this.limit = limit;
    this.left = limit;
  }

  /** Gives the reader its whole budget again. */
  void renew() {
    left = limit;
  }

  @Override
  public int read() throws IOException {
    spend();
    int c = super.read();
    if (c >= 0) left--;
    return c;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) return 0;
    spend();
    int n = super.read(buffer, offset, (int) Math.min(length, left));
    if (n > 0) left -= n;
    return n;
  }

  @Override
  public long skip(long count) throws IOException {
    if (count <= 0) return 0;
    spend();
    long skipped = super.skip(Math.min(count, left));
    if (skipped > 0) left -= skipped;
    return skipped;
  }

  private void spend() {
    if (left <= 0) throw new Exhausted(limit);
  }
}
