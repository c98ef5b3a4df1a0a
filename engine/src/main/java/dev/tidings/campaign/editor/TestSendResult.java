package dev.tidings.campaign.editor;

import java.time.Duration;

/** What became of one test send. */
public sealed interface TestSendResult {
  /** The node's mail transport took the email. */
  record Sent(String messageId, String to, String subject) implements TestSendResult {}

  /** No email could be written for this subscriber (the campaign's templates and their data). */
  record Refused(String reason) implements TestSendResult {}

  /** The transport did not take it (refused, deferred or unknown): {@code reason} is its answer. */
  record Failed(String reason) implements TestSendResult {}

  /** Too many test sends this minute on this node; try again after {@code retryAfter}. */
  record Limited(Duration retryAfter) implements TestSendResult {}
}
