import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  fixtureReply,
  startOpenAiFixtureServer,
  type FixtureRequest,
  type OpenAiFixtureServer,
} from "@waddle/planner/testing";
import {
  AgentSpec,
  ChannelsResponse,
  Release,
  ShadowReport,
  ShadowReportsResponse,
  type AgentSpecInput,
} from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const serverDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const toolsDir = mkdtempSync(path.join(serverDir, ".tmp-shadow-tools-"));
// `lookup` counts every time it really runs (in this process): a shadow must leave the count alone.
writeFileSync(
  path.join(toolsDir, "lookup.ts"),
  `import { z } from "zod";
   const counter = ((globalThis as Record<string, unknown>).__waddleShadowLookups ??= { count: 0 }) as { count: number };
   export const lookup = { name: "lookup", desc: "Looks a record up by id", sideEffects: "pure",
     args: z.object({ id: z.string() }), out: z.object({ record: z.string() }),
     run: ({ id }: { id: string }) => { counter.count += 1; return { record: "record-" + id }; } };`,
);
const counter = ((globalThis as Record<string, unknown>).__waddleShadowLookups ??= { count: 0 }) as {
  count: number;
};

let server: TestServer;
let fixture: OpenAiFixtureServer;
const AGENT = "shadow-agent";
const OFFLINE = "shadow-offline";
const post = (url: string, json: unknown) => server.request(url, { method: "POST", json });
const shadow = (json: unknown, agent = AGENT) => post(`/api/agents/${agent}/shadow`, json);

/** The messages of a fixture request as one text, to look for what the model was shown. */
const textOf = (request: FixtureRequest) => JSON.stringify((request.body as { messages?: unknown }).messages);

/**
 * The model behind the fixture: `model-a` looks up A-1, `model-b` looks up B-2 (new args for the same
 * tool), then each answers from what the tool said — or says it could not.
 */
function reply(request: FixtureRequest) {
  const body = request.body as { model: string; messages: { role: string; content: string }[] };
  if (!body.messages.some((message) => message.role === "assistant")) {
    return fixtureReply.json({ next_node: "lookup", args: { id: body.model === "model-b" ? "B-2" : "A-1" } });
  }
  const seen = /record-[A-Z]-\d/.exec(textOf(request))?.[0];
  return fixtureReply.finalAnswer(
    textOf(request).includes("not_recorded") ? "I could not look it up." : `Found ${seen ?? "nothing"}.`,
  );
}

const spec = (id: string, extra: Partial<AgentSpecInput> = {}) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: "Shadow agent",
    llm: { provider: "openai", model: "model-a", baseUrl: fixture.baseURL },
    tools: [
      {
        name: "lookup",
        desc: "Looks a record up",
        sideEffects: "pure",
        impl: { kind: "module", ref: "lookup" },
      },
    ],
    ...extra,
  });

async function save(next: AgentSpec): Promise<number> {
  const current = await server.request(`/api/agents/${next.id}`);
  const saved =
    current.status === 404
      ? await post("/api/agents", next)
      : await server.request(`/api/agents/${next.id}`, {
          method: "PUT",
          json: { spec: next, baseVersion: current.body.version },
        });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  return saved.body.version as number;
}

async function runToEnd(json: Record<string, unknown>): Promise<string> {
  const started = await post("/api/runs", json);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const run = await waitForRun(server, started.body.runId as string);
  expect(run.status).toBe("finished");
  return run.id;
}

const versions = { a: 0, b: 0, same: 0, approval: 0 };
let sessionTurns: string[] = [];

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({ fallback: reply, models: ["model-a", "model-b"] });
  server = await startTestServer({
    toolsDir,
    exampleAgentsDir: null,
    env: { OPENAI_API_KEY: "sk-fixture-key-0123456789" },
    llmAllow: [new URL(fixture.baseURL).origin],
  });
  versions.a = await save(spec(AGENT));
  versions.b = await save(
    spec(AGENT, { llm: { provider: "openai", model: "model-b", baseUrl: fixture.baseURL } }),
  );
  versions.same = await save(spec(AGENT, { description: "Same behaviour, another save" }));
  const approval = spec(AGENT);
  versions.approval = await save({
    ...approval,
    tools: approval.tools.map((tool) => ({ ...tool, requiresApproval: true })),
  });
  const released = await post(`/api/agents/${AGENT}/releases`, {
    version: versions.a,
    channel: "production",
  });
  expect(released.status, JSON.stringify(released.body)).toBe(201);
  await runToEnd({ agentId: AGENT, query: "Find record one" });
  await runToEnd({ agentId: AGENT, query: "Find record two" });
  const session = await post("/api/sessions", { agentId: AGENT });
  expect(session.status).toBe(201);
  const sessionId = session.body.sessionId as string;
  sessionTurns = [
    await runToEnd({ sessionId, query: "First question about my order" }),
    await runToEnd({ sessionId, query: "Second question, a follow-up" }),
  ];
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
  rmSync(toolsDir, { recursive: true, force: true });
});

describe("shadow comparison", () => {
  it("answers a candidate's new tool args with not_recorded, never runs the tool (pure), and says where the paths part", async () => {
    const before = counter.count;
    expect(before).toBe(4);
    const runsBefore = (await server.request(`/api/runs?agentId=${AGENT}&limit=1000`)).body.runs.length;
    const requestsBefore = fixture.completionRequests.length;

    const created = await shadow({ candidate: versions.b });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const report = ShadowReport.parse(created.body);
    expect(counter.count).toBe(before);
    expect(report).toMatchObject({
      agentId: AGENT,
      candidateVersion: versions.b,
      baseline: { channel: "production", version: versions.a },
      note: null,
      totals: { cases: 4, sameTools: 0, sameAnswer: 0 },
    });
    for (const entry of report.cases) {
      expect(entry.baseline.tools).toEqual([{ tool: "lookup", args: { id: "A-1" } }]);
      expect(entry.candidate.tools[0]).toEqual({ tool: "lookup", args: { id: "B-2" }, notRecorded: true });
      expect(entry).toMatchObject({ partsAt: 0, sameTools: false, sameAnswer: false });
      expect(entry.notRecorded).toBeGreaterThanOrEqual(1);
      expect(entry.baseline.answer).toBe("Found record-A-1.");
      expect(entry.candidate).toMatchObject({
        version: versions.b,
        status: "finished",
        answer: "I could not look it up.",
      });
      expect(entry.candidate.usage.llmCalls).toBeGreaterThanOrEqual(2);
    }
    expect(report.totals.notRecorded).toBe(report.cases.reduce((sum, entry) => sum + entry.notRecorded, 0));
    expect(report.totals.candidate.usage.llmCalls).toBe(
      report.cases.reduce((sum, entry) => sum + entry.candidate.usage.llmCalls, 0),
    );
    // Newest first: the session's two turns, then the two runs.
    expect(report.cases.map((entry) => [entry.runId, entry.turn])).toEqual([
      [sessionTurns[1], 2],
      [sessionTurns[0], 1],
      expect.arrayContaining([null]),
      expect.arrayContaining([null]),
    ]);
    // The candidate's model calls are real (the candidate's own model), and no shadow run is a run.
    expect(fixture.completionRequests.length).toBeGreaterThan(requestsBefore);
    const candidateCalls = fixture.completionRequests.slice(requestsBefore);
    expect(candidateCalls.every((request) => (request.body as { model: string }).model === "model-b")).toBe(
      true,
    );
    expect((await server.request(`/api/runs?agentId=${AGENT}&limit=1000`)).body.runs).toHaveLength(
      runsBefore,
    );
  });

  it("replays a session's turn with the conversation it had: its earlier turns reach the candidate's model", async () => {
    const requestsBefore = fixture.completionRequests.length;
    const created = await shadow({ candidate: versions.b, limit: 1 });
    expect(created.status).toBe(201);
    const [entry] = ShadowReport.parse(created.body).cases;
    expect(entry).toMatchObject({ runId: sessionTurns[1], turn: 2, query: "Second question, a follow-up" });
    expect(entry!.sessionId).toMatch(/^ses_/);
    const first = fixture.completionRequests.slice(requestsBefore)[0]!;
    expect(textOf(first)).toContain("Second question, a follow-up");
    // Turn 1 as the turn saw it: its question and its answer.
    expect(textOf(first)).toContain("First question about my order");
    expect(textOf(first)).toContain("Found record-A-1.");
  });

  it("reproduces the baseline's path and answer for a candidate that behaves alike, from recordings only", async () => {
    const before = counter.count;
    const created = await shadow({ candidate: versions.same });
    expect(created.status).toBe(201);
    const report = ShadowReport.parse(created.body);
    expect(counter.count).toBe(before);
    expect(report.totals).toMatchObject({ cases: 4, sameTools: 4, sameAnswer: 4, notRecorded: 0 });
    for (const entry of report.cases) {
      expect(entry).toMatchObject({ partsAt: null, sameTools: true, sameAnswer: true, notRecorded: 0 });
      expect(entry.candidate.tools).toEqual(entry.baseline.tools);
      expect(entry.candidate.answer).toBe(entry.baseline.answer);
    }
  });

  it("ends a case that pauses for approval as paused, without waiting", async () => {
    const before = counter.count;
    const created = await shadow({ candidate: versions.approval, limit: 2 });
    expect(created.status).toBe(201);
    const report = ShadowReport.parse(created.body);
    expect(counter.count).toBe(before);
    for (const entry of report.cases) {
      expect(entry.candidate).toMatchObject({ status: "paused", answer: null, error: { code: "paused" } });
      expect(entry.candidate.error!.message).toContain("never waits for a person");
    }
  });

  it("lists reports newest first without cases, reads one, and 404s what is not the agent's", async () => {
    const created = ShadowReport.parse((await shadow({ candidate: versions.same, limit: 1 })).body);
    const list = ShadowReportsResponse.parse((await server.request(`/api/agents/${AGENT}/shadow`)).body);
    expect(list.reports[0]!.id).toBe(created.id);
    expect(list.reports.length).toBeGreaterThanOrEqual(5);
    expect(list.reports.every((entry) => !("cases" in entry))).toBe(true);
    const read = await server.request(`/api/agents/${AGENT}/shadow/${created.id}`);
    expect(read.body).toEqual(created);
    expect((await server.request(`/api/agents/${AGENT}/shadow/shr_000000000000`)).status).toBe(404);
    await save(spec("other-agent"));
    expect((await server.request(`/api/agents/other-agent/shadow/${created.id}`)).status).toBe(404);
    expect((await server.request("/api/agents/nobody/shadow")).status).toBe(404);
  });

  it("attaches a report of the released version to a release, and refuses one of another version", async () => {
    const ofB = ShadowReport.parse((await shadow({ candidate: versions.b, limit: 1 })).body);
    const refused = await post(`/api/agents/${AGENT}/releases`, {
      version: versions.same,
      channel: "staging",
      shadowReportId: ofB.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "shadow_report_mismatch",
      details: { shadowReportId: ofB.id, candidateVersion: versions.b, version: versions.same },
    });
    const unknown = await post(`/api/agents/${AGENT}/releases`, {
      version: versions.b,
      channel: "staging",
      shadowReportId: "shr_nope",
    });
    expect(unknown.status).toBe(404);
    const released = await post(`/api/agents/${AGENT}/releases`, {
      version: versions.b,
      channel: "staging",
      shadowReportId: ofB.id,
    });
    expect(released.status, JSON.stringify(released.body)).toBe(201);
    expect(Release.parse(released.body).shadowReportId).toBe(ofB.id);
    const history = (await server.request(`/api/agents/${AGENT}/releases`)).body.releases as Release[];
    expect(history.map((entry) => entry.shadowReportId)).toEqual([ofB.id, null]);
    const channels = ChannelsResponse.parse((await server.request(`/api/agents/${AGENT}/channels`)).body);
    expect(channels.channels.map((channel) => [channel.name, channel.shadowReportId])).toEqual([
      ["production", null],
      ["staging", ofB.id],
    ]);
    const audit = (await server.request("/api/audit?action=release.created")).body.entries;
    expect(audit[0]).toMatchObject({ details: { shadowReportId: ofB.id } });
  });

  it("answers 200 with zero cases and a note for a baseline that served no runs", async () => {
    const empty = await shadow({ candidate: versions.same, baseline: "staging" });
    expect(empty.status).toBe(200);
    const report = ShadowReport.parse(empty.body);
    expect(report).toMatchObject({ cases: [], baseline: { channel: "staging", version: versions.b } });
    expect(report.note).toContain("nothing to replay");
    expect(report.totals.cases).toBe(0);
  });

  it("refuses bad input: unknown agent, version or channel 404; bad names and limits 400", async () => {
    const cases: [unknown, number, string?][] = [
      [{ candidate: 99 }, 404, "no version 99"],
      [{ candidate: "canary" }, 404, "canary"],
      [{ candidate: versions.b, baseline: "canary" }, 404, "canary"],
      [{ candidate: versions.b, baseline: "Prod!" }, 400, "baseline"],
      [{ candidate: "Not A Channel" }, 400, "candidate"],
      [{ candidate: versions.b, baseline: "latest" }, 400, "latest"],
      [{ candidate: versions.b, limit: 0 }, 400, "limit"],
      [{ candidate: versions.b, limit: 101 }, 400, "limit"],
      [{ candidate: versions.b, limit: 2.5 }, 400, "limit"],
      [{ candidate: versions.b, extra: true }, 400],
      [{}, 400, "candidate"],
    ];
    for (const [body, status, text] of cases) {
      const answer = await shadow(body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      if (text) expect(answer.text, JSON.stringify(body)).toContain(text);
    }
    expect((await shadow({ candidate: 1 }, "nobody")).status).toBe(404);
    expect((await server.request("/api/agents/Bad%20Id/shadow")).status).toBe(400);
  });
});

describe("shadow comparison of an agent with no release, on the offline model", () => {
  it("replays the runs that named no channel, says so, and reproduces them from recordings", async () => {
    await save(
      AgentSpec.parse({
        version: 1,
        id: OFFLINE,
        name: "Offline shadow",
        llm: { provider: "offline", model: "offline" },
        tools: [{ name: "lookup", desc: "Looks a record up", impl: { kind: "module", ref: "lookup" } }],
      }),
    );
    await runToEnd({ agentId: OFFLINE, query: "Find the order" });
    await runToEnd({ agentId: OFFLINE, query: "Find the invoice" });
    const before = counter.count;
    const created = await shadow({ candidate: "latest" }, OFFLINE);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const report = ShadowReport.parse(created.body);
    expect(counter.count).toBe(before);
    expect(report.baseline).toEqual({ channel: "production", version: null });
    expect(report.note).toContain("no production release");
    expect(report.totals).toMatchObject({ cases: 2, sameTools: 2, sameAnswer: 2, notRecorded: 0 });
    expect(report.cases[0]!.baseline.tools.length).toBeGreaterThan(0);
  });
});
