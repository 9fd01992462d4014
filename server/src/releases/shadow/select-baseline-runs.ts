import {
  LATEST_CHANNEL,
  PRODUCTION_CHANNEL,
  RUNS_LIST_MAX_LIMIT,
  type RunRecord,
  type ShadowReport,
} from "@waddle/protocol";
import { ApiError } from "../../shared/api-error.js";
import type { WaddleStore } from "../../store/waddle-store.js";

/** The runs a shadow replays, the baseline as the report names it, and what the report says about them. */
export interface BaselineRuns {
  baseline: ShadowReport["baseline"];
  runs: RunRecord[];
  note: string | null;
}

/** Runs that were traffic: a run or a session's turn, not a background task, a fork or a test case. */
const isServed = (run: RunRecord) => run.kind !== "task" && run.forkOf === undefined;

/**
 * The most recent ended (finished or failed) runs and turns the baseline channel served, newest first, at
 * most `limit`: those that recorded the channel, whatever version it pointed at then. An agent with no
 * `production` release served its latest save to every caller: the baseline is then the runs that recorded
 * no channel, and the note says so. Another channel that does not exist is 404 naming it.
 */
export async function selectBaselineRuns(
  store: WaddleStore,
  options: { agentId: string; channel: string; limit: number },
): Promise<BaselineRuns> {
  const { agentId, channel, limit } = options;
  if (channel === LATEST_CHANNEL) {
    throw new ApiError(
      "bad_request",
      `"${LATEST_CHANNEL}" is no channel whose traffic can be replayed: name one (production by default).`,
      { baseline: channel },
    );
  }
  const current = await store.releases.getChannel(agentId, channel);
  if (!current && channel !== PRODUCTION_CHANNEL) {
    throw new ApiError(
      "not_found",
      `Agent "${agentId}" has no channel "${channel}": compare against one it has (production by default).`,
      { agentId, channel },
    );
  }
  const read = Math.min(RUNS_LIST_MAX_LIMIT, limit * 4);
  const listed = await store.listRuns({
    agentId,
    statuses: ["finished", "failed"],
    purpose: "run",
    limit: read,
    ...(current ? { channel } : {}),
  });
  const runs = listed.filter((run) => isServed(run) && (current ? true : run.channel === undefined));
  const picked = runs.slice(0, limit);
  const notes: string[] = [];
  if (!current) {
    notes.push(
      `"${agentId}" has no ${PRODUCTION_CHANNEL} release yet, so callers got the latest save: the baseline ` +
        "is the latest ended runs and turns that named no channel.",
    );
  }
  if (picked.length === 0) {
    notes.push(
      `${current ? `Channel ${channel}` : "The latest save"} served no ended (finished or failed) runs of ` +
        `"${agentId}" yet: nothing to replay. Run the agent${current ? ` through ${channel}` : ""} first.`,
    );
  }
  return {
    baseline: { channel, version: current?.version ?? null },
    runs: picked,
    note: notes.length > 0 ? notes.join(" ") : null,
  };
}
