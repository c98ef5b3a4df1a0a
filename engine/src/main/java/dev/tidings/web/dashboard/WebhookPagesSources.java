package dev.tidings.web.dashboard;

import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoints;

/** What the dashboard's webhook pages read and change: the endpoints and their dead letters. */
public record WebhookPagesSources(WebhookEndpoints endpoints, WebhookDeadLetters deadLetters) {}
