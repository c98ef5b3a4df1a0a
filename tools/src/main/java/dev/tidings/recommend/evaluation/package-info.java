/**
 * Offline recommendation quality: interactions loaded into primitive arrays, a temporal holdout of each
 * user's last basket, algorithms fitted on what came before, ranked over the whole catalogue and scored
 * with HR, NDCG, precision, recall, MRR and coverage, with already-bought items kept and excluded. Stands
 * alone: it reads files and knows no database, queue or other capability.
 */
@NullMarked
package dev.tidings.recommend.evaluation;

import org.jspecify.annotations.NullMarked;
