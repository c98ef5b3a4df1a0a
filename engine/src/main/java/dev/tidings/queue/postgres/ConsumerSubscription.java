package dev.tidings.queue.postgres;

import dev.tidings.queue.Subscription;

/** The consumers of one subscription in this process. */
sealed interface ConsumerSubscription extends Subscription
    permits PostgresSubscription, PostgresBatchSubscription {
  /** Test hook: stop as a killed process would; whatever is in progress stays leased until its lease ends. */
  void abandon();
}
