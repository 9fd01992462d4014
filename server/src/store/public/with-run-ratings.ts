import type { RunRecord } from "@waddle/protocol";
import type { RunRatingStore } from "./run-rating-store.js";

/** The runs, each with its visitor's rating and comment when it has one (one read for all). */
export async function withRunRatings(ratings: RunRatingStore, runs: RunRecord[]): Promise<RunRecord[]> {
  if (runs.length === 0) return runs;
  const found = await ratings.getMany(runs.map((run) => run.id));
  return runs.map((run) => {
    const rated = found.get(run.id);
    return rated
      ? { ...run, rating: { rating: rated.rating, comment: rated.comment, ratedAt: rated.createdAt } }
      : run;
  });
}
