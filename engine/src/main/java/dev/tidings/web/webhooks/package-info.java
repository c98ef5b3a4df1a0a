/** The HTTP edge of outgoing webhooks: the shop's endpoints under {@code /api/v1/webhooks}. */
@NullMarked
package dev.tidings.web.webhooks;

import org.jspecify.annotations.NullMarked;
