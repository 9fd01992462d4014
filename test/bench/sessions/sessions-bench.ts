import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import type { AgentRecord, RunEvent, RunRecord, SessionRecord } from "@waddle/protocol";
import type { BenchContext, BenchResult } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";

const AGENT_ID = "support-chat-4k";
const TOKEN_BUDGET = 4_000;

async function call<T>(server: WaddleServer, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Waits until the session's last turn has ended and the log says so. */
async function waitForTurn(server: WaddleServer, sessionId: string, turn: number): Promise<SessionRecord> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const record = await server.store.sessions.get(sessionId);
    const last = record?.turns.at(-1);
    if (record && last?.turn === turn && record.status === "idle") return record;
    if (Date.now() > deadline) {
      const run = last ? await server.store.getRun(last.runId) : undefined;
      throw new Error(
        `turn ${turn} of ${sessionId} did not end: log says ${JSON.stringify(last)}, run is ${run?.status}`,
      );
    }
    await sleep(2);
  }
}

/** The prompt tokens of a run's first LLM call: what the model was sent, the session context included. */
function getFirstPromptTokens(events: readonly RunEvent[]): number {
  const call = events.find((event) => event.type === "llm_call");
  return call?.type === "llm_call" ? call.data.promptTokens : 0;
}

/**
 * A session of 200 turns on one agent with a 4k token budget, on a real server in this process (SQLite in a
 * temporary folder, the offline model): the server's own time to start a turn (the POST that checks the
 * session, builds and compacts its context and writes the turn) early and late, the prompt tokens each
 * turn sends, `GET /api/sessions/:id` at 200 turns, and the memory an idle session costs.
 */
export async function runSessionsBench(context: BenchContext): Promise<BenchResult> {
  const turns = context.quick ? 40 : 200;
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-sessions-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir: dir,
    designerDir: null,
    logLevel: "silent",
    env: {},
  });
  try {
    const base = await call<AgentRecord>(server, "/api/agents/support-triage");
    await call(server, "/api/agents", {
      ...base.spec,
      id: AGENT_ID,
      name: "Support chat (4k budget)",
      planner: { ...base.spec.planner, tokenBudget: TOKEN_BUDGET },
    });
    // Warm-up: a short session first, so that turn 1 of the measured one is not the JIT's first run.
    const warm = await call<{ sessionId: string }>(server, "/api/sessions", { agentId: AGENT_ID });
    for (let turn = 1; turn <= 10; turn += 1) {
      await call(server, "/api/runs", { sessionId: warm.sessionId, query: `Warm-up ${turn}` });
      await waitForTurn(server, warm.sessionId, turn);
    }
    const { sessionId } = await call<{ sessionId: string }>(server, "/api/sessions", { agentId: AGENT_ID });
    const startMs: number[] = [];
    const promptTokens: number[] = [];
    for (let turn = 1; turn <= turns; turn += 1) {
      const started = performance.now();
      const { runId } = await call<{ runId: string }>(server, "/api/runs", {
        sessionId,
        query: `Question ${turn}: my invoice #${1000 + turn} shows a duplicate charge of ${turn * 3} euros`,
      });
      startMs.push(performance.now() - started);
      await waitForTurn(server, sessionId, turn);
      promptTokens.push(getFirstPromptTokens(await server.store.listEvents(runId)));
      if (turn % 50 === 0) context.log(`${turn} turns`);
    }
    const getMs: number[] = [];
    for (let index = 0; index < (context.quick ? 20 : 100); index += 1) {
      const started = performance.now();
      await call<SessionRecord>(server, `/api/sessions/${sessionId}`);
      getMs.push(performance.now() - started);
    }
    context.log("read the session");
    const record = await call<SessionRecord>(server, `/api/sessions/${sessionId}`);
    const run = await call<RunRecord>(server, `/api/runs/${record.turns.at(-1)!.runId}`);

    // Memory per idle session: sessions with one ended turn each, then nothing running.
    const idleCount = context.quick ? 50 : 200;
    globalThis.gc?.();
    const before = process.memoryUsage();
    for (let index = 0; index < idleCount; index += 1) {
      const { sessionId: id } = await call<{ sessionId: string }>(server, "/api/sessions", {
        agentId: AGENT_ID,
      });
      await call(server, "/api/runs", { sessionId: id, query: "Hello" });
      await waitForTurn(server, id, 1);
      if ((index + 1) % 50 === 0) context.log(`${index + 1} idle sessions`);
    }
    globalThis.gc?.();
    const after = process.memoryUsage();
    context.log("idle sessions made");
    const perSessionKb = (after.heapUsed - before.heapUsed) / 1024 / idleCount;
    const rssPerSessionKb = (after.rss - before.rss) / 1024 / idleCount;

    const early = getSummary(startMs.slice(0, 10));
    const late = getSummary(startMs.slice(-10));
    const get = getSummary(getMs);
    const contextBudget = TOKEN_BUDGET / 2;
    const maxPrompt = Math.max(...promptTokens);
    const at = (turn: number) => promptTokens[Math.min(turn, promptTokens.length) - 1] ?? 0;
    const ratio = late.median / early.median;
    return {
      tables: [
        {
          title: `Starting a turn (POST /api/runs with sessionId), ms: turns 1–10 against turns ${turns - 9}–${turns}`,
          columns: ["turns", "median ms", "p90 ms", "max ms"],
          rows: [
            ["1–10", round(early.median, 2), round(early.p90, 2), round(early.max, 2)],
            [`${turns - 9}–${turns}`, round(late.median, 2), round(late.p90, 2), round(late.max, 2)],
          ],
        },
        {
          title: `Prompt tokens of each turn's first LLM call (token budget ${TOKEN_BUDGET}; the session's context may take ${contextBudget})`,
          columns: [1, 10, Math.round(turns / 4), Math.round(turns / 2), turns]
            .map((turn) => `turn ${turn}`)
            .concat("max"),
          rows: [[at(1), at(10), at(Math.round(turns / 4)), at(Math.round(turns / 2)), at(turns), maxPrompt]],
        },
        {
          title: `GET /api/sessions/:id at ${turns} turns (${getMs.length} requests), and memory per idle session`,
          columns: [
            "median ms",
            "p90 ms",
            "max ms",
            "record KB",
            "heap KB per idle session",
            "RSS KB per idle session",
          ],
          rows: [
            [
              round(get.median, 2),
              round(get.p90, 2),
              round(get.max, 2),
              round(JSON.stringify(record).length / 1024, 1),
              round(perSessionKb, 2),
              round(rssPerSessionKb, 2),
            ],
          ],
        },
      ],
      lines: [
        `turn-start-ratio: ${round(ratio, 2)}`,
        `session-get-median-ms: ${round(get.median, 2)}`,
        `compacted-through-turn: ${record.compactedThroughTurn}`,
        `last-turn-status: ${run.status}`,
      ],
      targets: [
        {
          target: `turn start flat: turn ${turns} within 20 % of turn 1`,
          measured: `${round(ratio, 2)}×`,
          met: ratio <= 1.2,
        },
        {
          target: `prompt tokens bounded by the ${TOKEN_BUDGET}-token budget`,
          measured: `max ${maxPrompt}`,
          met: maxPrompt <= TOKEN_BUDGET,
        },
        {
          target: `GET /api/sessions/:id at ${turns} turns under 20 ms`,
          measured: `${round(get.median, 2)} ms median`,
          met: get.median < 20,
        },
      ],
      notes: [
        "One server in this process (createWaddleServer on a temporary SQLite folder), the offline model, the support-triage example with planner.tokenBudget 4000; turns are sent one after another, each waited for.",
        "Turn start is the POST /api/runs round trip on 127.0.0.1: checking the session, reading the last turn's open todos, building the context and compacting it when over half the budget, the conditional write of turn_started, and queueing the run.",
        "Prompt tokens are the offline model's estimate for the first LLM call of each turn (query, system prompt, tools and the session context).",
        `Memory: heap and RSS of this process before and after ${idleCount} more sessions of one ended turn each, after gc(); a session lives in the store, so what stays in memory per session is what the server caches of it.`,
      ],
    };
  } finally {
    context.log("closing");
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
