/**
 * Campaigns: what a campaign says (sender, subject, HTML and text templates, k open-time slots), whom it
 * reaches (all subscribers or a segment), how it is paced (priority, rate, schedule), and how each email
 * is written at send time for the send pipeline behind {@link dev.tidings.campaign.send.Sends}.
 */
@NullMarked
package dev.tidings.campaign;

import org.jspecify.annotations.NullMarked;
