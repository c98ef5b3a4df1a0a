/**
 * The dashboard: server-rendered pages over the capabilities' read-only queries (campaigns, one
 * campaign's funnel, recommendations explorer, system), the live funnel as server-sent events, and
 * sign-in with the API key into a signed session cookie.
 */
@NullMarked
package dev.tidings.web.dashboard;

import org.jspecify.annotations.NullMarked;
