package dev.tidings.fetch;

import java.net.URI;
import java.util.Map;

/** What a guarded fetch came to. */
public sealed interface FetchResult {
  /**
   * The body (within the byte limit), its declared content type, the URL it came from and the response's
   * validators for a conditional fetch next time ({@code ETag}, {@code Last-Modified}, by those names, when
   * the server sent them).
   */
  record Fetched(byte[] body, String contentType, URI from, Map<String, String> validators)
      implements FetchResult {
    public Fetched {
      validators = Map.copyOf(validators);
    }

    public Fetched(byte[] body, String contentType, URI from) {
      this(body, contentType, from, Map.of());
    }
  }

  /**
   * An answer with no body to keep, the same whether the body was to be kept in memory or in a file
   * ({@link FileFetchResult}).
   */
  sealed interface NoBody extends FetchResult, FileFetchResult
      permits NotModified, Refused, Failed {}

  /** A conditional fetch whose resource has not changed since the validators it sent (304). */
  record NotModified() implements NoBody {}

  /**
   * Not fetched because the guard forbids it: an address, a scheme, too many redirects, a type, a body
   * larger than the byte limit (declared, or found while reading).
   */
  record Refused(String reason) implements NoBody {}

  /** Tried and did not work: no answer, an error status, too slow. */
  record Failed(String reason) implements NoBody {}
}
