package dev.tidings.web;

import io.helidon.webserver.http.ServerRequest;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Request bodies with a size limit that holds whether or not the client sent a Content-Length. */
public final class Bodies {
  private Bodies() {}

  /** 413 at once when the declared length is over {@code maxBytes}; otherwise a stream that fails past it. */
  public static InputStream limited(ServerRequest request, long maxBytes) {
    var declared = request.headers().contentLength();
    if (declared.isPresent() && declared.getAsLong() > maxBytes) {
      throw ApiProblem.tooLarge(maxBytes);
    }
    return new Limited(request.content().inputStream(), maxBytes);
  }

  /** Reads a body stream into a result. */
  @FunctionalInterface
  public interface Reader<T> {
    T read(InputStream body) throws IOException;
  }

  /**
   * Hands the body, limited to {@code maxBytes}, to {@code reader}: 413 when it is larger, however the reader
   * came to stop (a parser may wrap the stream's failure in its own).
   */
  public static <T> T read(ServerRequest request, long maxBytes, Reader<T> reader) {
    try (InputStream body = limited(request, maxBytes)) {
      return reader.read(body);
    } catch (IOException | RuntimeException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof BodyTooLargeException) throw ApiProblem.tooLarge(maxBytes);
      }
      if (e instanceof RuntimeException unchecked) throw unchecked;
      throw new UncheckedIOException((IOException) e);
    }
  }

  private static final class Limited extends FilterInputStream {
    private final long limit;
    private long read;

    Limited(InputStream in, long limit) {
      super(in);
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) count(1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) count(n);
      return n;
    }

    private void count(int n) throws BodyTooLargeException {
      read += n;
      if (read > limit) throw new BodyTooLargeException(limit);
    }
  }
}
