import type { Rating } from "@waddle/protocol";

/** A rating of one run's answer by a public chat visitor (issue 33). */
export interface StoredRating {
  runId: string;
  agentId: string;
  sessionId: string | null;
  rating: Rating;
  comment: string | null;
  createdAt: string;
}

/** How many runs of an agent are rated up or down. */
export interface RatingCount {
  agentId: string;
  rating: Rating;
  count: number;
}

/** Ratings, one per run: rating a run again replaces its rating (the visitor changed their mind). */
export interface RunRatingStore {
  put(rating: StoredRating): Promise<StoredRating>;
  get(runId: string): Promise<StoredRating | undefined>;
  /** The ratings of those of `runIds` that have one. */
  getMany(runIds: readonly string[]): Promise<Map<string, StoredRating>>;
  /** Counts per agent and rating, for `/metrics`. */
  countByAgent(): Promise<RatingCount[]>;
}
