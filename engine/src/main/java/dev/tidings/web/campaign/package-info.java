/** Campaigns over HTTP: the {@code /api/v1/campaigns} resource and its actions, and the email-facing unsubscribe page. */
@NullMarked
package dev.tidings.web.campaign;

import org.jspecify.annotations.NullMarked;
