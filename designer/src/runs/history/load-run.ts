import type { AgentSpec, RunEvent, RunRecord } from "@waddle/protocol";
import type { AgentsApi } from "../../api/agents-api.js";
import type { RunsApi } from "../../api/runs-api.js";
import { applyRunEvents, createRunView } from "../fold/apply-run-event.js";
import type { RunView } from "../fold/run-view.js";

export type RunLoadApi = Pick<RunsApi, "getRun" | "getRunEvents"> & Pick<AgentsApi, "getVersion">;

/** The spec of the version a run ran, by `agentId@version`, fetched once (null when it is gone). */
export type SpecCache = (agentId: string, version: number) => Promise<AgentSpec | null>;

export function createSpecCache(api: Pick<AgentsApi, "getVersion">): SpecCache {
  const cache = new Map<string, Promise<AgentSpec | null>>();
  return (agentId, version) => {
    const key = `${agentId}@${version}`;
    let spec = cache.get(key);
    if (spec === undefined) {
      // A deleted version still replays, without its edges; a failed fetch is tried again next time.
      spec = api.getVersion(agentId, version).then(
        (record) => record.spec,
        (error: unknown) => {
          cache.delete(key);
          if ((error as { status?: number }).status === 404) return null;
          throw error;
        },
      );
      cache.set(key, spec);
    }
    return spec;
  };
}

export interface LoadedRun {
  runId: string;
  run: RunRecord;
  spec: AgentSpec | null;
  events: RunEvent[];
}

/** A run's record, the spec of the version that ran and its stored events so far. */
export async function loadRun(input: {
  api: RunLoadApi;
  getSpec: SpecCache;
  runId: string;
}): Promise<LoadedRun> {
  const { api, getSpec, runId } = input;
  const run = await api.getRun(runId);
  const [spec, events] = await Promise.all([
    getSpec(run.agentId, run.agentVersion),
    api.getRunEvents(runId, 0),
  ]);
  return { runId, run, spec, events };
}

/**
 * A loaded run folded to its end (for comparisons), with the status its record has: the server's word on
 * how the run stands (a run it failed, interrupted or cancelled without the planner's own last event, a
 * pause), so that a comparison never shows a status the run does not have.
 */
export function getLoadedRunView(loaded: LoadedRun): RunView {
  const view = applyRunEvents(
    createRunView(loaded.runId),
    loaded.events,
    loaded.spec === null ? {} : { spec: loaded.spec },
  );
  return view.status === loaded.run.status ? view : { ...view, status: loaded.run.status };
}
