import type { RunEvent, RunRecord } from "@waddle/protocol";
import type { Router } from "express";
import { actorOf, type Actor } from "../../../access/actor.js";
import { inScope } from "../../../access/permissions.js";
import { ApiError } from "../../../shared/api-error.js";
import { createSessionId } from "../../../sessions/session-service.js";
import { parseRequest, RunId } from "../../../http/validate-request.js";
import { getUnsupportedParameter } from "../get-unsupported-parameter.js";
import { getAnswerFormat } from "../get-answer-format.js";
import { runAgent, type AgentRunner } from "../../run-agent.js";
import { getRunOutcome, type AgentRunOutcome } from "../../run-outcome.js";
import { ChatDeltaTracker } from "../../../runs/chat-delta-tracker.js";
import { getWaddleExtension } from "../create-chat-completion.js";
import { getRunFailure } from "../get-run-failure.js";
import { getOpenAiErrorBody, sendOpenAiError } from "../openai-error.js";
import { SseWriter } from "../../../http/sse-writer.js";
import { ResponseEventWriter, type ResponseStreamEvent } from "./response-event-writer.js";
import { createResponseObject, type OutputItem, type ResponseStatus } from "./response-object.js";
import { checkSessionScope, otherModel } from "./check-session-scope.js";
import { getResponsesQuery, ResponsesRequest } from "./responses-request.js";
import { resolveModel } from "../resolve-model.js";

/**
 * `POST /v1/responses` and `GET /v1/responses/:id`: the OpenAI Responses API on sessions. A response is a
 * turn: its id is the turn's run id, `conversation` is the session, and it starts through the same
 * `SessionTurns` as `POST /api/sessions/:id/turns` (same conflicts). Streamed, it sends the event sequence
 * the `openai` client's `responses.stream()` accumulates (response.created, output items, text and
 * reasoning deltas, the `.done` events, response.completed with usage).
 */
export function addResponsesRoutes(router: Router, options: { runner: AgentRunner; token?: string }): void {
  const { runner } = options;

  router.post("/responses", async (request, response) => {
    const body = parseRequest(ResponsesRequest, request.body, "body");
    const unsupported = getUnsupportedParameter(body);
    if (unsupported) throw unsupported;
    const answerSchema = getAnswerFormat(body);
    // `agent`, `agent@staging` or `agent@7`: a new conversation pins the version that resolves to
    const { agent, target } = await resolveModel(runner.store, body.model);
    const query = getResponsesQuery(body.input);
    if (query === undefined) {
      throw new ApiError(
        "validation_failed",
        "input must be text, or messages whose last is the user's with text.",
        {
          param: "input",
        },
      );
    }
    const pinned = { agentId: agent.id, agentVersion: agent.version, channel: target.channel };
    const sessionId = await getSessionId(runner, actorOf(response), body, pinned);
    const previousResponseId = body.previous_response_id ?? null;
    const head = {
      model: body.model,
      createdAt: Math.floor(Date.now() / 1000),
      sessionId,
      previousResponseId,
    };
    const controller = new AbortController();
    response.once("close", () => {
      if (!response.writableFinished) controller.abort(new Error("the client went away"));
    });
    const sse = body.stream ? new SseWriter(response) : undefined;
    const tracker = new ChatDeltaTracker();
    let writer: ResponseEventWriter | undefined;
    const send = (event: ResponseStreamEvent) => {
      sse?.sendEvent(event.type, event);
    };
    const run = await runAgent(runner, {
      agentId: agent.id,
      query,
      sessionId,
      ...(answerSchema ? { answerSchema } : {}),
      signal: controller.signal,
      onStarted: (runId) => {
        writer = new ResponseEventWriter(runId, send);
        response.setHeader("x-waddle-run-id", runId);
        if (!sse) return;
        sse.open();
        const created = createResponseObject({ ...head, runId, status: "in_progress", output: [] });
        writer.emit({ type: "response.created", response: created });
        writer.emit({ type: "response.in_progress", response: created });
      },
      onEvent: (event: RunEvent) => {
        const delta = tracker.onEvent(event);
        if (delta && sse) writer?.add(delta);
      },
    });
    if (controller.signal.aborted) return;
    const outcome = getRunOutcome(run, {
      serverUrl: `${request.protocol}://${request.get("host")}`,
      tokenRequired: options.token !== undefined,
    });
    if (!writer) writer = new ResponseEventWriter(run.id, send);
    if (!sse && tracker.reasoning) writer.add({ reasoning_content: tracker.reasoning });
    if (outcome.kind === "failure") {
      const { error, sideEffects } = await getRunFailure(runner.store, run, outcome, runner.mcp);
      const waddle = { ...getWaddleExtension(outcome), ...(sideEffects.length > 0 ? { sideEffects } : {}) };
      if (!sse) return sendOpenAiError(response, error, { waddle });
      writer.finish(undefined, "incomplete");
      const failed = getResponse(head, run, "failed", writer.output, outcome, {
        code: error.code,
        message: error.message,
      });
      writer.emit({ type: "response.failed", response: failed });
      sse.send({ ...getOpenAiErrorBody(error), waddle });
      sse.end();
      return;
    }
    writer.finish(outcome.kind === "answer" ? outcome.answer : outcome.text);
    const incomplete =
      outcome.kind === "answer" && (outcome.reason === "max_iters" || outcome.reason === "budget_exhausted");
    const final = getResponse(head, run, incomplete ? "incomplete" : "completed", writer.output, outcome);
    if (!sse) {
      response.json(final);
      return;
    }
    writer.emit({ type: incomplete ? "response.incomplete" : "response.completed", response: final });
    sse.end();
  });

  router.get("/responses/:id", async (request, response) => {
    const id = String(request.params.id);
    const run = RunId.safeParse(id).success ? await runner.store.getRun(id) : undefined;
    if (!run)
      throw new ApiError("not_found", `No response "${id.slice(0, 100)}": a response id is a run id.`);
    const outcome = getRunOutcome(run, {
      serverUrl: `${request.protocol}://${request.get("host")}`,
      tokenRequired: options.token !== undefined,
    });
    const head = {
      model: run.agentId,
      createdAt: Math.floor(Date.parse(run.createdAt ?? run.startedAt ?? new Date().toISOString()) / 1000),
      sessionId: run.sessionId,
      previousResponseId: null,
    };
    const writer = new ResponseEventWriter(run.id, () => undefined);
    const running = run.status === "queued" || run.status === "running";
    if (!running && outcome.kind !== "failure")
      writer.finish(outcome.kind === "answer" ? outcome.answer : outcome.text);
    const status: ResponseStatus = running
      ? "in_progress"
      : outcome.kind === "failure"
        ? run.status === "cancelled"
          ? "cancelled"
          : "failed"
        : "completed";
    response.json(
      getResponse(
        head,
        run,
        status,
        writer.output,
        outcome,
        outcome.kind === "failure" ? outcome.error : undefined,
      ),
    );
  });
}

/**
 * The session of a response: `conversation`, or `previous_response_id`'s; a new one when neither. A run or
 * session of an agent outside the key's scope answers exactly as an unknown id (404), so that a scoped key
 * cannot learn that it exists; one of another agent the key may see is a 400 naming the parameter.
 */
async function getSessionId(
  runner: AgentRunner,
  actor: Actor,
  body: ResponsesRequest,
  pinned: { agentId: string; agentVersion: number; channel?: string | undefined },
): Promise<string> {
  const { agentId, agentVersion, channel } = pinned;
  const named = typeof body.conversation === "string" ? body.conversation : body.conversation?.id;
  let fromPrevious: string | undefined;
  if (body.previous_response_id) {
    const found = RunId.safeParse(body.previous_response_id).success
      ? await runner.store.getRun(body.previous_response_id)
      : undefined;
    const previous = found && inScope(actor, found.agentId) ? found : undefined;
    if (!previous) {
      throw new ApiError("not_found", `No response "${body.previous_response_id.slice(0, 100)}".`, {
        param: "previous_response_id",
      });
    }
    if (previous.agentId !== agentId) throw otherModel("previous_response_id", "response", previous.agentId);
    if (!previous.sessionId) {
      throw new ApiError(
        "validation_failed",
        "That response was not part of a conversation: it cannot be continued.",
        {
          param: "previous_response_id",
        },
      );
    }
    fromPrevious = previous.sessionId;
  }
  if (named !== undefined && fromPrevious !== undefined && named !== fromPrevious) {
    throw new ApiError(
      "validation_failed",
      "conversation and previous_response_id name two different conversations.",
      {
        param: "conversation",
      },
    );
  }
  const sessionId = named ?? fromPrevious;
  if (sessionId !== undefined) {
    await checkSessionScope(runner.store, actor, { sessionId, model: agentId, param: "conversation" });
    return sessionId;
  }
  const created = await runner.store.sessions.create({
    id: createSessionId(),
    agentId,
    agentVersion,
    ...(channel === undefined ? {} : { channel }),
  });
  return created.id;
}

function getResponse(
  head: {
    model: string;
    createdAt: number;
    sessionId?: string | undefined;
    previousResponseId: string | null;
  },
  run: RunRecord,
  status: ResponseStatus,
  output: readonly OutputItem[],
  outcome: AgentRunOutcome,
  error?: { code: string; message: string },
): Record<string, unknown> {
  return createResponseObject({
    runId: run.id,
    model: head.model,
    createdAt: head.createdAt,
    status,
    output,
    run,
    ...(head.sessionId ? { sessionId: head.sessionId } : {}),
    previousResponseId: head.previousResponseId,
    ...(error ? { error } : {}),
    ...(status === "incomplete" ? { incompleteReason: "max_output_tokens" as const } : {}),
    waddle: getWaddleExtension(outcome),
  });
}
