/**
 * The live recommender: small candidate sources ({@link dev.tidings.recommend.blend.CandidateSource}),
 * each reading the activity aggregates, the catalogue or the follows, merged by a {@link
 * dev.tidings.recommend.blend.Blender} with weights and filters kept in the database and re-read by
 * every node every few seconds. Whatever costs more than a hash lookup per product (popularity with
 * decay, co-occurrence neighbours, the EASE model) is rebuilt in the background, never on a request.
 */
@NullMarked
package dev.tidings.recommend.blend;

import org.jspecify.annotations.NullMarked;
