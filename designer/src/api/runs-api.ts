import {
  RunEventsResponse,
  RunRecord,
  RunsListResponse,
  RunStatus,
  StartRunResponse,
  type ForkRunRequestInput,
  type Rating,
  type ResumeRequest,
  type RunEvent,
  type StartRunRequest,
} from "@waddle/protocol";
import { z } from "zod";
import { route, withQuery, type ApiRequester } from "./api-requester.js";

/** `POST /api/runs/:id/cancel` answers the run's status once the cancel took effect. */
const CancelRunResponse = z.object({ runId: z.string(), status: RunStatus });
export type CancelRunResponse = z.infer<typeof CancelRunResponse>;

export interface ListRunsOptions {
  agentId?: string;
  /** Only runs in these statuses. */
  status?: RunStatus | readonly RunStatus[];
  limit?: number;
  /** `run` (the server's default): no test cases' runs; `test`: only those; `all`: both. */
  purpose?: "run" | "test" | "all";
  /** Only runs a public chat visitor rated so. */
  rating?: Rating;
  /** Only runs this trigger fired (`GET /api/runs?trigger=`). */
  trigger?: string;
}

/** `/api/runs`: start, list, read, cancel, resume and fork runs. */
export function createRunsApi(http: ApiRequester) {
  return {
    /** Starts a run of the agent's saved version (or `agentVersion`); 202 with its id. */
    async startRun(body: StartRunRequest): Promise<StartRunResponse> {
      return http.json("POST", "/api/runs", StartRunResponse, body);
    },

    /** Runs, newest first, of one agent and/or in some statuses. */
    async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
      const query = new URLSearchParams();
      if (options.agentId !== undefined) query.set("agentId", options.agentId);
      if (options.status !== undefined) {
        const statuses: readonly RunStatus[] =
          typeof options.status === "string" ? [options.status] : options.status;
        if (statuses.length > 0) query.set("status", statuses.join(","));
      }
      if (options.limit !== undefined) query.set("limit", String(options.limit));
      if (options.purpose !== undefined) query.set("purpose", options.purpose);
      if (options.rating !== undefined) query.set("rating", options.rating);
      if (options.trigger !== undefined) query.set("trigger", options.trigger);
      return (await http.json("GET", withQuery("/api/runs", query), RunsListResponse)).runs;
    },

    async getRun(id: string): Promise<RunRecord> {
      return http.json("GET", route`/api/runs/${id}`, RunRecord);
    },

    /** The run's stored events with `seq > after`, in order (at most `limit` when given). */
    async getRunEvents(id: string, after = 0, limit?: number): Promise<RunEvent[]> {
      const query = new URLSearchParams({ after: String(after) });
      if (limit !== undefined) query.set("limit", String(limit));
      return (await http.json("GET", withQuery(route`/api/runs/${id}/events`, query), RunEventsResponse))
        .events;
    },

    /** Cancels a queued, running or paused run; an ended run throws ApiError `invalid_state` (409). */
    async cancelRun(id: string): Promise<CancelRunResponse> {
      return http.json("POST", route`/api/runs/${id}/cancel`, CancelRunResponse);
    },

    /**
     * Answers a paused run. A pause already answered (by another page, say) or a run no longer paused throws
     * ApiError with status 409 whose details tell the run's status.
     */
    async resumeRun(id: string, body: ResumeRequest): Promise<{ runId: string }> {
      return http.json("POST", route`/api/runs/${id}/resume`, StartRunResponse, body);
    },

    /** Forks a run from a step (`POST /api/runs/:id/fork`): the new run's id. */
    async forkRun(id: string, body: ForkRunRequestInput): Promise<{ runId: string }> {
      return http.json("POST", route`/api/runs/${id}/fork`, StartRunResponse, body);
    },
  };
}

export type RunsApi = ReturnType<typeof createRunsApi>;
