package dev.tidings.web.dashboard;

import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.history.SubscriberHistory;
import dev.tidings.recommend.Recommender;
import java.time.InstantSource;

/**
 * What the Subscribers pages read and write, handed over by the wiring. Suppressions are read and
 * written on the primary database: the page shown after a change must show that change, which a
 * standby may not have yet; everything else may come from the read pool.
 *
 * @param changes counts the suppressions the pages add and lift
 */
public record SubscriberPagesSources(
    SubscriberService subscribers,
    FollowService follows,
    SuppressionService suppressions,
    SuppressionChanges changes,
    SubscriberHistory history,
    CatalogService catalog,
    Recommender recommender,
    InstantSource clock) {}
