/**
 * Fetching a URL that came from input (a product's picture, the scheduled product feed) without
 * letting it reach this node's own network: {@link dev.tidings.fetch.GuardedFetcher} resolves the
 * host, checks every address with {@link dev.tidings.fetch.AddressRules} on every redirect hop,
 * connects only to the addresses it checked, and bounds the time and bytes spent; the body is kept in
 * memory ({@link dev.tidings.fetch.FetchResult}) or streamed to a file that lives as long as a
 * callback ({@link dev.tidings.fetch.FileFetchResult}). {@link dev.tidings.fetch.FetchAllowance}
 * (the {@code TIDINGS_FETCH_ALLOW} setting) lets named ranges or hosts through.
 */
@NullMarked
package dev.tidings.fetch;

import org.jspecify.annotations.NullMarked;
