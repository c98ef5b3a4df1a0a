/**
 * The demo's readers: a deterministic plan of what people, their mail clients' proxies and link
 * scanners do with the demo campaign's emails (opens in bursts, machine prefetches, clicks, bounces,
 * complaints, unsubscribes, site activity), carried out against the node's real public URLs and API.
 */
@NullMarked
package dev.tidings.demo;

import org.jspecify.annotations.NullMarked;
