package dev.tidings.fetch;

import java.net.URI;

/** What a guarded fetch came to. */
public sealed interface FetchResult {
  /** The body (within the byte limit), its declared content type and the URL it came from. */
  record Fetched(byte[] body, String contentType, URI from) implements FetchResult {}

  /** Not fetched because the guard forbids it: an address, a scheme, too many redirects, a type. */
  record Refused(String reason) implements FetchResult {}

  /** Tried and did not work: no answer, an error status, too slow, too large. */
  record Failed(String reason) implements FetchResult {}
}
