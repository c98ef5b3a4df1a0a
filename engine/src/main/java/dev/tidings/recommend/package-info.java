/**
 * The recommend port: k distinct products for one subscriber, asked by the open-time slots when an
 * email is first opened, and later by campaigns and digests. Algorithms plug in behind
 * {@link dev.tidings.recommend.Recommender}; callers say what to exclude (what the subscriber's recent
 * emails already showed), in what context, and by when they need the answer.
 */
@NullMarked
package dev.tidings.recommend;

import org.jspecify.annotations.NullMarked;
