import { EventType } from "@ag-ui/core";
import { protoSafeReviver, type PendingPause, type RunRecord, type SessionRecord } from "@waddle/protocol";
import express, { Router, type RequestHandler } from "express";
import { z } from "zod";
import { forbidden, readBearer, unauthorized, type AccessGuards } from "../../access/access-guard.js";
import { actorOf, setActor, type Actor } from "../../access/actor.js";
import { can } from "../../access/permissions.js";
import type { RateLimits } from "../../access/rate-limits.js";
import { requireJsonBody } from "../../http/security.js";
import { parseRequest } from "../../http/validate-request.js";
import { checkPublicTurn } from "../../public/check-public-turn.js";
import { limitPublicWork } from "../../public/limit-public-work.js";
import { verifyPublishableKey } from "../../public/verify-publishable-key.js";
import { getAgentIdOf, resolveAgentName } from "../../releases/resolve-agent-name.js";
import type { SessionTurns } from "../../sessions/session-turns.js";
import { ApiError } from "../../shared/api-error.js";
import type { Logger } from "../../shared/logger.js";
import type { AgentRunner } from "../run-agent.js";
import { checkPublishableOrigin, createAguiCors } from "./agui-cors.js";
import { FULL_VIEW } from "./agui-event-mapper.js";
import { AguiEventStream } from "./agui-event-stream.js";
import {
  createPublishableActor,
  getPublishableGrant,
  getPublishedAgentName,
  getVisitorView,
  PUBLISHABLE_KEY_PREFIX,
  setPublishableGrant,
} from "./agui-publishable-key.js";
import { getThreadSession, getThreadSessionId, openThreadSession } from "./agui-thread.js";
import { getAguiDecision, getAguiQuery, parseAguiInput, type AguiInput } from "./parse-agui-input.js";
import { resumeAguiTurn, runAguiTurn } from "./run-agui-turn.js";

export interface AguiRoutesOptions {
  runner: AgentRunner & { turns: SessionTurns };
  access: AccessGuards;
  logger: Logger;
  /** Buckets per key and per agent, as on `/v1`. */
  rateLimits?: RateLimits;
  corsOrigin?: string;
  bodyLimit?: string;
}

const AgentParam = z.strictObject({ id: z.string().min(1).max(300) });

/**
 * `POST /agui/:id`: every agent as an AG-UI agent (the protocol of CopilotKit and `@ag-ui/client`). The
 * body is AG-UI's `RunAgentInput`; the answer streams AG-UI events (official encoder: SSE, or protobuf when
 * `Accept` asks for it). `:id` is an agent, `agent@staging` or `agent@7`, as on `/v1`. The thread is a
 * Waddle session; a pause ends the run with an interrupt that the thread's next run answers in `resume`.
 * Keys as on `/v1` (`runs:start`; answering an interrupt needs `runs:decide`); a publishable key runs its
 * own agent only, under its public chat's rules: CORS to the chat's `allowedOrigins` only, the chat's
 * rate limits, message size and `maxTurns`, runs that record the chat, and visitors who wait while a team
 * member decides.
 */
export function createAguiRoutes(options: AguiRoutesOptions): Router {
  const { runner, access } = options;
  const router = Router();
  router.use(createAguiCors({ store: runner.store, corsOrigin: options.corsOrigin }));
  router.use(createAuthenticate(options));
  router.use(requireJsonBody);
  router.use(express.json({ limit: options.bodyLimit ?? "1mb", reviver: protoSafeReviver, strict: false }));
  router.use(access.authorize);
  if (options.rateLimits) {
    // `agent@staging` and `agent@7` count against the agent's own bucket. A publishable key draws from its
    // public chat's buckets instead (see the new turn below), as the chat's own routes do.
    const limit = options.rateLimits.middleware((request) =>
      getAgentIdOf(String(request.params["id"]), "@").slice(0, 200),
    );
    router.post("/:id", (request, response, next) =>
      getPublishableGrant(response) ? next() : limit(request, response, next),
    );
  }

  router.post("/:id", async (request, response) => {
    const { id } = parseRequest(AgentParam, request.params, "params");
    const grant = getPublishableGrant(response);
    const name = grant ? getPublishedAgentName(id, grant) : id;
    const resolved = await resolveAgentName(runner.store, name, "@");
    if (!resolved) {
      throw new ApiError("not_found", `No agent "${id.slice(0, 100)}": GET /api/agents lists the agents.`);
    }
    const input = parseAguiInput(request.body);
    const actor = actorOf(response);
    const { agentId, agent, target } = resolved;
    const sessionId = getThreadSessionId(input.threadId, grant?.publicId);
    const controller = new AbortController();
    response.once("close", () => {
      if (!response.writableFinished) controller.abort(new Error("the client went away"));
    });
    const stream = new AguiEventStream(response, request.headers.accept);
    const base = {
      runner,
      ids: { threadId: input.threadId, runId: input.runId },
      stream,
      caller: {
        view: grant ? getVisitorView(grant) : FULL_VIEW,
        waitsForPeople: grant !== undefined,
        ...(actor.kind === "local" ? {} : { name: actor.name }),
        ...(grant ? { publicId: grant.publicId } : {}),
      },
      clientState: input.state,
      signal: controller.signal,
    };
    try {
      if (input.resume && input.resume.length > 0) {
        if (!can(actor, "runs:decide")) throw forbidden("runs:decide");
        const session = await getThreadSession({ store: runner.store, actor, sessionId, agent: { agentId } });
        if (!session) throw noInterrupt(input.threadId, "it has no run yet");
        const run = await getWaitingRun(runner, session);
        if (!run) throw noInterrupt(input.threadId, "its last run waits for nothing");
        await resumeAguiTurn({ ...base, session, run, decision: getAguiDecision(getEntry(input, run)) });
        return;
      }
      const query = getAguiQuery(input.messages);
      const thread = { store: runner.store, actor, sessionId };
      const existing = await getThreadSession({ ...thread, agent: { agentId } });
      if (existing) await refuseIfWaiting(runner, existing, input.threadId, actor);
      if (grant) {
        // The public chat's own guards. A caller here has no visitor token, so "each visitor" is each
        // address: a thread id is the caller's to choose, and a new one per message would dodge any limit.
        checkPublicTurn({ chat: grant.chat, query, turns: existing?.turns.length ?? 0 });
        const visitorId = `ip:${request.ip ?? request.socket.remoteAddress ?? "unknown"}`;
        const limits = options.rateLimits;
        if (limits) await limitPublicWork({ limits, chat: grant.chat, visitorId, response });
      }
      const session =
        existing ??
        (await openThreadSession({
          ...thread,
          agent: { agentId, agentVersion: agent.version, channel: target.channel },
        }));
      await runAguiTurn({ ...base, session, query });
    } catch (error) {
      if (!stream.isStarted) throw error;
      sendRunError(stream, error, options.logger);
    }
  });

  router.use((request) => {
    throw new ApiError(
      "not_found",
      `No route ${request.method} /agui${request.path}: an AG-UI agent is POST /agui/<agentId>.`,
    );
  });
  return router;
}

/** A publishable key (`wpk_…`, checked against the store each time), or the server's keys and token. */
function createAuthenticate(options: AguiRoutesOptions): RequestHandler {
  return (request, response, next) => {
    const presented = readBearer(request.headers.authorization);
    if (!presented?.startsWith(PUBLISHABLE_KEY_PREFIX)) {
      return options.access.authenticate(request, response, next);
    }
    verifyPublishableKey(options.runner.store, presented).then((grant) => {
      if (!grant) {
        response.setHeader("www-authenticate", 'Bearer realm="waddle"');
        return next(unauthorized());
      }
      try {
        checkPublishableOrigin(request, response, grant.chat);
      } catch (error) {
        return next(error);
      }
      setActor(response, createPublishableActor(grant));
      setPublishableGrant(response, grant);
      next();
    }, next);
  };
}

/** The thread's last run when it waits at a pause. */
async function getWaitingRun(
  runner: AgentRunner,
  session: SessionRecord,
): Promise<(RunRecord & { pause: PendingPause }) | undefined> {
  const last = session.turns.at(-1);
  const run = last ? await runner.store.getRun(last.runId) : undefined;
  return run?.status === "paused" && run.pause ? { ...run, pause: run.pause } : undefined;
}

/** The resume entry that answers the run's pause; a 409 when the entries answer something else. */
function getEntry(input: AguiInput, run: RunRecord & { pause: PendingPause }) {
  const entries = input.resume ?? [];
  const entry = entries.find((candidate) => candidate.interruptId === run.pause.resumeToken);
  const others = entries.filter((candidate) => candidate !== entry).map((other) => other.interruptId);
  if (entry && others.length === 0) return entry;
  throw new ApiError(
    "invalid_state",
    `Thread "${input.threadId}" waits at interrupt "${run.pause.resumeToken}" only: answer that one` +
      (others.length > 0 ? ` (not ${others.map((other) => `"${other}"`).join(", ")}).` : "."),
    { reason: "stale_token", interruptId: run.pause.resumeToken },
  );
}

function noInterrupt(threadId: string, why: string): ApiError {
  return new ApiError(
    "invalid_state",
    `Thread "${threadId}" has no interrupt to answer: ${why}. Send a user message instead of resume.`,
    { reason: "not_paused" },
  );
}

/** A new message on a thread that waits at an interrupt is a 409 saying how to answer it. */
async function refuseIfWaiting(
  runner: AgentRunner,
  session: SessionRecord,
  threadId: string,
  actor: Actor,
): Promise<void> {
  const run = await getWaitingRun(runner, session);
  if (!run) return;
  const id = run.pause.resumeToken;
  throw new ApiError(
    "invalid_state",
    can(actor, "runs:decide")
      ? `Thread "${threadId}" waits at interrupt "${id}": answer it first, with resume: [{"interruptId": ` +
          `"${id}", "status": "resolved", "payload": {"decision": "approve"}}] (or "status": "cancelled").`
      : `Thread "${threadId}" waits for a team member to decide: try again once they have.`,
    { reason: "turn_in_progress", interruptId: id },
  );
}

/** A failure after the stream started: AG-UI's `RUN_ERROR`, as the stream's last event. */
function sendRunError(stream: AguiEventStream, error: unknown, logger: Logger): void {
  const known = error instanceof ApiError;
  if (!known) logger.error("AG-UI run failed", { error: String(error) });
  stream.send([
    {
      type: EventType.RUN_ERROR,
      code: known ? error.code : "internal",
      message: known ? error.message : "The server failed while streaming this run: see its log.",
    },
  ]);
  stream.end();
}
