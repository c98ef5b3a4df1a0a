/**
 * Sending a campaign run (seeds 04 and 05): plan the recipients into partitions and a ledger, hand the
 * partitions to workers through the work queue by priority, render and send each email exactly once
 * under the campaign's shared rate, and know when the run is done. What an email says is the
 * campaign capability's business, behind {@link dev.tidings.campaign.send.Composer}.
 */
@NullMarked
package dev.tidings.campaign.send;

import org.jspecify.annotations.NullMarked;
