import { defineGuardCheck } from "@waddle/planner";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, GuardSampleResult } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const KEY = "fixture-key-guards-0042";
let fixture: OpenAiFixtureServer;
let server: TestServer;

const check = (json: unknown) => server.request("/api/guards/check", { method: "POST", json });

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY, models: ["judge-model"] });
  server = await startTestServer({ env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fixture.baseURL } });
  const agent = (id: string, llm: Record<string, unknown>) =>
    AgentSpec.parse({
      version: 1,
      id,
      name: id,
      llm,
      tools: [{ name: "noop", impl: { kind: "mock", output: {} } }],
    });
  await server.store.createAgent({ spec: agent("judged", { provider: "openai", model: "judge-model" }) });
  await server.store.createAgent({ spec: agent("offline-desk", { provider: "offline", model: "offline" }) });
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
});

describe("POST /api/guards/check", () => {
  it("runs a built-in check on the sample: findings by kind, the text as redact leaves it", async () => {
    const { status, body } = await check({
      check: { kind: "pii", types: ["email", "card"] },
      text: "Write to ana@example.com, card 4111 1111 1111 1111.",
    });
    expect(status).toBe(200);
    expect(GuardSampleResult.parse(body)).toEqual(body);
    expect(body).toMatchObject({ verdict: "fail", redacted: "Write to [email], card [card]." });
    expect(body.findings).toEqual(
      expect.arrayContaining([
        { kind: "email", count: 1 },
        { kind: "card", count: 1 },
      ]),
    );
    const clean = await check({ check: { kind: "pii" }, text: "Nothing personal here." });
    expect(clean.body).toMatchObject({ verdict: "pass", findings: [] });
  });

  it("runs a module check registered with the server, and says so when there is none of that name", async () => {
    server.registry.registerGuardCheck(
      defineGuardCheck({
        name: "no-competitors",
        check: (value) =>
          String(value).includes("Acme")
            ? { pass: false, findings: [{ kind: "competitor", count: 1 }], message: "Names a competitor." }
            : { pass: true },
      }),
      "test/house-rules.ts",
    );
    const { body } = await check({ check: { kind: "module", name: "no-competitors" }, text: "Try Acme" });
    expect(body).toMatchObject({ verdict: "fail", findings: [{ kind: "competitor", count: 1 }] });
    const missing = await check({ check: { kind: "module", name: "not-registered" }, text: "x" });
    expect(missing.status).toBe(200);
    expect(missing.body.verdict).toBe("error");
    expect(missing.body.message).toContain("not-registered");
  });

  it("judges an llm check with the named agent's model, else the offline model", async () => {
    fixture.enqueue(fixtureReply.json({ verdict: "fail", reason: "It is rude." }));
    const before = fixture.completionRequests.length;
    const judged = await check({
      check: { kind: "llm", prompt: "Fail a rude answer." },
      text: "Go away.",
      agentId: "judged",
    });
    expect(judged.status).toBe(200);
    expect(judged.body.verdict).toBe("fail");
    expect(fixture.completionRequests.length).toBe(before + 1);
    // No agent, or an offline one: the deterministic stand-in judges (the rule's quoted words), nothing is sent.
    const rule = { kind: "llm", prompt: 'Fail if it mentions "refund".' };
    for (const agentId of [undefined, "offline-desk"]) {
      const refund = await check({ check: rule, text: "I want a refund now", agentId });
      expect(refund.body).toMatchObject({ verdict: "fail", findings: [{ kind: "judged", count: 1 }] });
      const hello = await check({ check: rule, text: "Hello", agentId });
      expect(hello.body).toMatchObject({ verdict: "pass", findings: [] });
    }
    expect(fixture.completionRequests.length).toBe(before + 1);
  });

  it("refuses an llm check's own model on an endpoint this server does not allow, before sending anything", async () => {
    const before = fixture.completionRequests.length;
    const { status, body } = await check({
      check: {
        kind: "llm",
        prompt: "Fail a rude answer.",
        llm: { provider: "openai", model: "judge-model", baseUrl: "https://elsewhere.example.com/v1" },
      },
      text: "Go away.",
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: "llm_endpoint_not_allowed" });
    expect(fixture.completionRequests.length).toBe(before);
  });

  it("answers bad input with a clear 4xx: no check, an unknown agent, too much text", async () => {
    expect((await check({ text: "x" })).body).toMatchObject({ code: "validation_failed" });
    const unknownKind = await check({ check: { kind: "regex" }, text: "x" });
    expect(unknownKind.status).toBe(400);
    const agent = await check({ check: { kind: "pii" }, text: "x", agentId: "no-such-agent" });
    expect(agent.status).toBe(404);
    const long = await check({ check: { kind: "max_length", chars: 10 }, text: "x".repeat(1_000_001) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain("text");
    const huge = await check({ check: { kind: "pii" }, text: "é".repeat(1_000_000) });
    expect(huge.status).toBe(413);
    // A whole megabyte of text is checked.
    const megabyte = await check({
      check: { kind: "pii" },
      text: `${"lorem ipsum ".repeat(83_000)}ana@example.com`,
    });
    expect(megabyte.status).toBe(200);
    expect(megabyte.body.findings).toEqual([{ kind: "email", count: 1 }]);
  });
});

describe("a module guard check the server does not have", () => {
  it("is a warning of validation, gone once a check of that name is registered", async () => {
    const spec = {
      version: 1,
      id: "house-rules",
      name: "House rules",
      llm: { provider: "offline", model: "offline" },
      guards: [
        { name: "rules", on: "output", check: { kind: "module", name: "house-style" }, action: "block" },
      ],
    };
    const { body } = await server.request("/api/agents/validate", { method: "POST", json: spec });
    const issue = body.issues.find((each: { code: string }) => each.code === "unknown_guard_check");
    expect(issue).toMatchObject({
      severity: "warning",
      path: "$.guards[0].check.name",
      target: { kind: "agent" },
    });
    expect(issue.message).toContain('"house-style"');
    expect(body.ok).toBe(true);
    server.registry.registerGuardCheck(
      defineGuardCheck({ name: "house-style", check: () => ({ pass: true }) }),
      "test/house-style.ts",
    );
    const after = await server.request("/api/agents/server-check", { method: "POST", json: spec });
    expect(after.body.issues).toEqual([]);
  });
});
