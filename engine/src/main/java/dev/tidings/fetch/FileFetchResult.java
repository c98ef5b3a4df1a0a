package dev.tidings.fetch;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a guarded fetch into a file came to ({@link GuardedFetcher#fetchToFile}): the body saved whole,
 * or one of the answers without a body that an in-memory fetch has too.
 */
public sealed interface FileFetchResult permits FileFetchResult.Saved, FetchResult.NoBody {
  /**
   * The body (within the byte limit) saved in {@code file}, which lives only as long as the callback
   * it is handed to; its declared content type, the URL it came from and the response's validators
   * ({@code ETag}, {@code Last-Modified}) as for {@link FetchResult.Fetched}.
   */
  record Saved(Path file, long size, String contentType, URI from, Map<String, String> validators)
      implements FileFetchResult {
    public Saved {
      validators = Map.copyOf(validators);
    }
  }
}
