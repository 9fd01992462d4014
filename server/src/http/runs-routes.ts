import { resolveRunTarget } from "../releases/resolve-run-target.js";
import { filterByScope } from "../access/access-guard.js";
import {
  ForkRunRequest,
  getResumeNote,
  ListRunsQuery,
  ResumeRequest,
  StartRunRequest,
  StartTurnRequest,
  type StartRunResponse,
  type RunEventsResponse,
  type RunsListResponse,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { ApiError, notFound } from "../shared/api-error.js";
import type { RunCommands } from "../runs/run-service.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { SessionTurns } from "../sessions/session-turns.js";
import { parseRequest, RunIdParam } from "./validate-request.js";
import { getTurnSessionId, respondWithTurn } from "./respond-with-turn.js";
import { actorOf } from "../access/actor.js";
import { audit, getArgsDiff } from "../access/audit-trail.js";
import { withRunRatings } from "../store/public/with-run-ratings.js";

const EventsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** `/api/runs`: start, list, get, events after a seq, cancel, resume. */
export function createRunsRoutes(options: {
  store: WaddleStore;
  runs: RunCommands;
  turns: SessionTurns;
}): Router {
  const { store, runs, turns } = options;
  const router = Router();

  router.post("/", async (request, response) => {
    // With `sessionId`, a turn of that session: the alias of `POST /api/sessions/:id/turns`.
    if (getTurnSessionId(request.body) !== undefined) {
      const turn = parseRequest(StartTurnRequest, request.body, "body");
      return respondWithTurn({ turns, request: turn, response });
    }
    const body = parseRequest(StartRunRequest, request.body, "body");
    // The caller's channel or version, else production once the agent has one, else the latest save.
    const { channel: asked, ...start } = body;
    const target = await resolveRunTarget(store, body.agentId, {
      channel: asked,
      version: body.agentVersion,
    });
    const answer: StartRunResponse = await runs.startRun(
      target.version === undefined ? start : { ...start, agentVersion: target.version },
      target.channel ? { origin: { channel: target.channel } } : {},
    );
    await audit(response, {
      action: "run.started",
      target: { type: "run", id: answer.runId },
      details: { via: "api", agentId: body.agentId },
    });
    response.status(202).location(`/api/runs/${answer.runId}`).json(answer);
  });

  router.get("/", async (request, response) => {
    const query = parseRequest(ListRunsQuery, request.query, "query");
    const body: RunsListResponse = {
      // A key limited to some agents lists only their runs (access/access-guard.ts).
      runs: filterByScope(
        response,
        await store.listRuns({
          ...(query.agentId ? { agentId: query.agentId } : {}),
          ...(query.status ? { statuses: query.status } : {}),
          ...(query.purpose === "all" ? {} : { purpose: query.purpose }),
          ...(query.channel ? { channel: query.channel } : {}),
          ...(query.rating ? { rating: query.rating } : {}),
          ...(query.trigger ? { trigger: query.trigger } : {}),
          ...(query.triggerKind ? { triggerKind: query.triggerKind } : {}),
          limit: query.limit,
        }),
        (run) => run.agentId,
      ),
    };
    // A public chat visitor's rating and comment, for History (issue 33).
    body.runs = await withRunRatings(store.publicChat.ratings, body.runs);
    response.json(body);
  });

  router.get("/:id", async (request, response) => {
    const { id } = parseRequest(RunIdParam, request.params, "params");
    const run = await store.getRun(id);
    if (!run) throw notFound("Run", id);
    response.json((await withRunRatings(store.publicChat.ratings, [run]))[0]);
  });

  router.get("/:id/events", async (request, response) => {
    const { id } = parseRequest(RunIdParam, request.params, "params");
    const query = parseRequest(EventsQuery, request.query, "query");
    if (!(await store.getRun(id))) throw notFound("Run", id);
    const body: RunEventsResponse = {
      events: await store.listEvents(id, {
        afterSeq: query.after,
        ...(query.limit ? { limit: query.limit } : {}),
      }),
    };
    response.json(body);
  });

  router.post("/:id/cancel", async (request, response) => {
    const { id } = parseRequest(RunIdParam, request.params, "params");
    const run = await runs.cancelRun(id);
    await audit(response, {
      action: "run.cancelled",
      target: { type: "run", id: run.id },
      details: { agentId: run.agentId, status: run.status },
    });
    response.json({ runId: run.id, status: run.status });
  });

  router.post("/:id/fork", async (request, response) => {
    const { id } = parseRequest(RunIdParam, request.params, "params");
    const body = parseRequest(ForkRunRequest, request.body, "body");
    if (!runs.forkRun) throw new ApiError("invalid_state", "This server does not run forks.");
    const { runId } = await runs.forkRun(id, body);
    await audit(response, {
      action: "run.started",
      target: { type: "run", id: runId },
      details: { via: "fork", parentRunId: id, fromStep: body.fromStep },
    });
    response.status(202).location(`/api/runs/${runId}`).json({ runId });
  });

  router.post("/:id/resume", async (request, response) => {
    const { id } = parseRequest(RunIdParam, request.params, "params");
    const body = parseRequest(ResumeRequest, request.body, "body");
    const actor = actorOf(response);
    const paused = await store.getRun(id);
    // The decider is named in the run's events when there is someone to name (a key or the token).
    const { runId } = await runs.resumeRun(id, {
      ...body,
      ...(actor.kind === "local" ? {} : { actor: actor.name }),
    });
    const pausedArgs = paused?.pause?.payload["args"];
    // What the person typed with the decision: the same note the `resumed` event carries.
    const note = getResumeNote(body.userInput);
    await audit(response, {
      action: "run.decision",
      target: { type: "run", id: runId },
      details: {
        decision: body.decision,
        ...(paused ? { agentId: paused.agentId, reason: paused.pause?.reason } : {}),
        ...(body.decision === "edit"
          ? {
              argsDiff: getArgsDiff(isRecord(pausedArgs) ? pausedArgs : undefined, body.args),
            }
          : {}),
        ...(note === undefined ? {} : { note }),
      },
    });
    response.status(202).json({ runId });
  });

  return router;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
