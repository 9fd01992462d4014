import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, RunEvent as RunEventSchema, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

/** A tool API that counts its calls by tool: what a fork did not call stays at the parent's count. */
const counts = { search: 0, page: 0, send: 0 };
let api: Server;
let apiUrl: string;
let fixture: OpenAiFixtureServer;
let server: TestServer;

beforeAll(async () => {
  api = createServer((request, response) => {
    const url = request.url ?? "/";
    response.setHeader("content-type", "application/json");
    if (url.startsWith("/search")) {
      counts.search += 1;
      return response.end(JSON.stringify({ ids: [1, 2] }));
    }
    if (url.startsWith("/page/")) {
      counts.page += 1;
      const version = url.includes("v=2") ? " (v2)" : "";
      return response.end(JSON.stringify({ text: `page ${url.slice(6, 7)}${version}` }));
    }
    counts.send += 1;
    response.end(JSON.stringify({ sent: true }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  fixture = await startOpenAiFixtureServer({ apiKey: "fixture-key-7", models: ["house-model"] });
  server = await startTestServer({
    env: { OPENAI_API_KEY: "fixture-key-7", OPENAI_BASE_URL: fixture.baseURL },
    httpAllow: ["127.0.0.1"],
  });
  await save(docsSpec());
});

afterAll(async () => {
  await server.stop();
  await fixture.close();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});

const object = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
});

function docsSpec(pageQuery: Record<string, string> = {}) {
  return AgentSpec.parse({
    version: 1,
    id: "docs",
    name: "docs",
    llm: { provider: "openai", model: "house-model" },
    tools: [
      {
        name: "search",
        sideEffects: "read",
        argsSchema: object({ q: { type: "string" } }),
        impl: { kind: "http", url: `${apiUrl}/search`, body: "none" },
      },
      {
        name: "fetch_page",
        sideEffects: "pure",
        argsSchema: object({ id: { type: "string" } }),
        outSchema: object({ text: { type: "string" } }),
        impl: { kind: "http", url: `${apiUrl}/page/{id}`, query: pageQuery, body: "none" },
      },
      {
        name: "send",
        sideEffects: "write",
        argsSchema: object({ to: { type: "string" } }),
        impl: { kind: "http", method: "POST", url: `${apiUrl}/send` },
      },
    ],
  });
}

async function save(spec: AgentSpec): Promise<void> {
  const response = await server.request("/api/agents", { method: "POST", json: spec });
  expect(response.status).toBe(201);
}

const plan = [
  fixtureReply.json({ next_node: "search", args: { q: "refunds" } }),
  fixtureReply.json({ next_node: "fetch_page", args: { id: "1" } }),
  fixtureReply.json({ next_node: "send", args: { to: "dana" } }),
  fixtureReply.finalAnswer("Sent page 1 to Dana."),
];

async function runParent(): Promise<string> {
  fixture.enqueue(...plan);
  const response = await server.request("/api/runs", {
    method: "POST",
    json: { agentId: "docs", query: "Send Dana the refunds page" },
  });
  expect(response.status).toBe(202);
  const run = await waitForRun(server, response.body.runId);
  expect(run.status, JSON.stringify(run.error)).toBe("finished");
  return run.id;
}

async function fork(parentId: string, body: Record<string, unknown>) {
  const response = await server.request(`/api/runs/${parentId}/fork`, { method: "POST", json: body });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  const run = await waitForRun(server, response.body.runId as string);
  expect(run.status, JSON.stringify(run.error)).toBe("finished");
  return { run, events: await server.store.listEvents(run.id) };
}

const own = (events: RunEvent[]) => events.filter((event) => event.replayed !== true);
let parentId: string;

beforeEach(async () => {
  // Each test uses every reply it queued: a leftover would change the next parent run.
  expect(fixture.pending).toBe(0);
  parentId = await runParent();
});

describe("POST /api/runs/:id/fork", () => {
  it("copies the prefix, serves identical calls from the record and runs the write tool again", async () => {
    const before = { ...counts, llm: fixture.completionRequests.length };
    const { run, events } = await fork(parentId, { fromStep: 2 });
    expect(run.forkOf).toEqual({ runId: parentId, step: 2 });
    expect(run.result).toMatchObject({ kind: "finish", payload: { answer: "Sent page 1 to Dana." } });
    // No model request and no read or pure call: only the write tool ran again.
    expect(fixture.completionRequests.length).toBe(before.llm);
    expect(counts).toEqual({ search: before.search, page: before.page, send: before.send + 1 });
    const parentEvents = await server.store.listEvents(parentId);
    const replayed = events.filter((event) => event.replayed === true);
    expect(replayed.map((event) => [event.type, event.step])).toEqual(
      parentEvents.filter((event) => event.step < 2).map((event) => [event.type, event.step]),
    );
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    for (const event of events) expect(RunEventSchema.safeParse(event).success).toBe(true);
    const llmCalls = own(events).filter((event) => event.type === "llm_call");
    expect(llmCalls.map((event) => event.cached)).toEqual([true, true]);
    const sendEnd = own(events).find((event) => event.type === "tool_end");
    expect(sendEnd?.data.tool).toBe("send");
    expect(sendEnd?.cached).toBeUndefined();
  });

  it("with reuse none, every call after the fork point is live", async () => {
    const before = { ...counts, llm: fixture.completionRequests.length };
    fixture.enqueue(plan[2]!, plan[3]!);
    await fork(parentId, { fromStep: 2, reuse: "none" });
    expect(fixture.completionRequests.length).toBe(before.llm + 2);
    expect(counts.send).toBe(before.send + 1);
    expect(counts.page).toBe(before.page);
  });

  it("edits an observation, and a fork of that fork reuses the fork's own record", async () => {
    const before = { ...counts, llm: fixture.completionRequests.length };
    fixture.enqueue(fixtureReply.finalAnswer("Page 1 is out of date: nothing sent."));
    const first = await fork(parentId, {
      fromStep: 1,
      edit: { kind: "observation", value: { text: "page 1 is out of date" } },
    });
    expect(fixture.completionRequests.length).toBe(before.llm + 1);
    expect(JSON.stringify(fixture.completionRequests.at(-1)?.body)).toContain("page 1 is out of date");
    expect(counts).toEqual({ search: before.search, page: before.page, send: before.send });
    const edited = own(first.events).find((event) => event.type === "tool_end");
    expect(edited?.data).toMatchObject({ tool: "fetch_page", edited: true });
    expect(edited?.cached).toBeUndefined();

    const second = await fork(first.run.id, { fromStep: 2 });
    expect(second.run.forkOf).toEqual({ runId: first.run.id, step: 2 });
    expect(second.run.result).toMatchObject({ payload: { answer: "Page 1 is out of date: nothing sent." } });
    // The second fork's prefix holds the edited step; its planning request equals the first fork's.
    expect(fixture.completionRequests.length).toBe(before.llm + 1);
  });

  it("edits args (the tool runs with them) and the model's reply (the model is not asked)", async () => {
    const before = { ...counts, llm: fixture.completionRequests.length };
    fixture.enqueue(fixtureReply.finalAnswer("Read page 7."));
    const withArgs = await fork(parentId, { fromStep: 1, edit: { kind: "args", value: { id: "7" } } });
    expect(counts.page).toBe(before.page + 1);
    expect(withArgs.run.result).toMatchObject({ payload: { answer: "Read page 7." } });
    expect(JSON.stringify(fixture.completionRequests.at(-1)?.body)).toContain("page 7");
    const reply = await fork(parentId, {
      fromStep: 3,
      edit: {
        kind: "llm_reply",
        value: JSON.stringify({ next_node: "final_response", args: { answer: "Written." } }),
      },
    });
    expect(reply.run.result).toMatchObject({ payload: { answer: "Written." } });
    expect(fixture.completionRequests.length).toBe(before.llm + 1);
  });

  it("edits the query at step 0: the model is asked again, identical read and pure calls are served", async () => {
    const before = { ...counts, llm: fixture.completionRequests.length };
    fixture.enqueue(...plan);
    const { run, events } = await fork(parentId, {
      fromStep: 0,
      edit: { kind: "query", value: "Send Dana the refunds page, politely" },
    });
    expect(run.query).toBe("Send Dana the refunds page, politely");
    expect(events.some((event) => event.replayed === true)).toBe(false);
    expect(fixture.completionRequests.length).toBe(before.llm + 4);
    expect(counts).toEqual({ search: before.search, page: before.page, send: before.send + 1 });
    const served = events.filter((event) => event.type === "tool_end" && event.cached === true);
    expect(served.map((event) => (event.type === "tool_end" ? event.data.tool : ""))).toEqual([
      "search",
      "fetch_page",
    ]);
  });

  it("forks on another version: the changed tool runs live, unchanged calls are served", async () => {
    const current = await server.request("/api/agents/docs");
    const saved = await server.request("/api/agents/docs", {
      method: "PUT",
      json: { spec: docsSpec({ v: "2" }), baseVersion: current.body.version },
    });
    expect(saved.status).toBe(200);
    const before = { ...counts, llm: fixture.completionRequests.length };
    fixture.enqueue(plan[2]!, plan[3]!);
    const { run, events } = await fork(parentId, { fromStep: 1, agentVersion: saved.body.version });
    expect(run.agentVersion).toBe(saved.body.version);
    expect(counts.page).toBe(before.page + 1);
    const page = own(events).find((event) => event.type === "tool_end" && event.data.tool === "fetch_page");
    expect(page?.data.observation).toEqual({ text: "page 1 (v2)" });
    // The first planning request equals the parent's (served); after the new page text, the model is asked.
    expect(own(events).find((event) => event.type === "llm_call")?.cached).toBe(true);
    expect(fixture.completionRequests.length).toBe(before.llm + 2);
  });
});

describe("POST /api/runs/:id/fork refuses bad input", () => {
  it("names the step range, the edit's issues, and a query edit away from step 0", async () => {
    const range = await server.request(`/api/runs/${parentId}/fork`, {
      method: "POST",
      json: { fromStep: 40 },
    });
    expect(range.status).toBe(422);
    expect(range.body).toMatchObject({
      code: "invalid_fork",
      details: { reason: "step_out_of_range", steps: { first: 0, last: 3 } },
    });
    expect(range.body.message).toContain("0–3");
    const badObservation = await server.request(`/api/runs/${parentId}/fork`, {
      method: "POST",
      json: { fromStep: 1, edit: { kind: "observation", value: { text: 42 } } },
    });
    expect(badObservation.status).toBe(422);
    expect(badObservation.body.details.reason).toBe("invalid_observation");
    expect(badObservation.body.details.issues[0].path).toEqual(["text"]);
    const query = await server.request(`/api/runs/${parentId}/fork`, {
      method: "POST",
      json: { fromStep: 2, edit: { kind: "query", value: "again" } },
    });
    expect(query.status).toBe(422);
    expect(query.body.details.reason).toBe("query_needs_step_0");
    const unknownKind = await server.request(`/api/runs/${parentId}/fork`, {
      method: "POST",
      json: { fromStep: 1, edit: { kind: "prompt", value: "x" } },
    });
    expect(unknownKind.status).toBe(400);
    const missing = await server.request(`/api/runs/run_0000000000000000/fork`, {
      method: "POST",
      json: { fromStep: 0 },
    });
    expect(missing.status).toBe(404);
  });

  it("is 409 for a run still going and 404 once its version is gone", async () => {
    await save(
      AgentSpec.parse({
        version: 1,
        id: "slow",
        name: "slow",
        llm: { provider: "offline", model: "offline" },
        tools: [{ name: "wait", impl: { kind: "mock", latencyMs: 60_000, output: { ok: true } } }],
      }),
    );
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "slow", query: "wait" },
    });
    const busy = await server.request(`/api/runs/${started.body.runId}/fork`, {
      method: "POST",
      json: { fromStep: 0 },
    });
    expect(busy.status).toBe(409);
    expect(busy.body.details.reason).toBe("run_active");
    await server.request(`/api/runs/${started.body.runId}/cancel`, { method: "POST" });
    await waitForRun(server, started.body.runId);
    const gone = await server.request("/api/agents/slow", { method: "DELETE" });
    expect(gone.status).toBe(204);
    const deleted = await server.request(`/api/runs/${started.body.runId}/fork`, {
      method: "POST",
      json: { fromStep: 0 },
    });
    expect(deleted.status).toBe(404);
    expect(deleted.body.details.reason).toBe("version_deleted");
  });
});
