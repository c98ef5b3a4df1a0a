/**
 * Amazon SES events through SNS: the SNS message signature (versions 1 and 2) checked against a
 * certificate from an allow-listed SNS host or a configured file, the topic against configuration,
 * subscriptions confirmed only once both hold.
 */
@NullMarked
package dev.tidings.delivery.webhook.ses;

import org.jspecify.annotations.NullMarked;
