import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  AgentRecord,
  AgentSpec,
  agentSpecJsonSchema,
  AgentsListResponse,
  AgentVersionsResponse,
  HealthResponse,
  ToolsResponse,
} from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let server: TestServer;
const noRuns = async () => {
  throw new Error("this suite starts no runs");
};
beforeAll(async () => {
  server = await startTestServer({ createPlanner: noRuns });
});
afterAll(() => server.stop());

const newSpec = (id: string, name = "Fresh agent") =>
  AgentSpec.parse({
    version: 1,
    id,
    name,
    tools: [
      { name: "lookup", desc: "Looks a record up.", impl: { kind: "mock", output: { found: true } } },
      { name: "calc", desc: "Evaluates arithmetic.", impl: { kind: "module", ref: "calculator" } },
    ],
  });

describe("meta routes", () => {
  it("answers health, tools and the schema", async () => {
    for (const [route, schema] of [
      ["/api/health", HealthResponse],
      ["/api/tools", ToolsResponse],
      ["/api/agents", AgentsListResponse],
      ["/api/agents/support-triage", AgentRecord],
      ["/api/agents/support-triage/versions", AgentVersionsResponse],
    ] as const) {
      expect(schema.safeParse((await server.request(route)).body).error, route).toBeUndefined();
    }
    const health = await server.request("/api/health");
    // Where this checkout's CLI is, for the designer's Use snippets (the CLI is not on npm).
    const cliPath = path.resolve(fileURLToPath(import.meta.url), "../../../../apps/cli/bin/waddle.mjs");
    expect(health.body).toEqual({ ok: true, version: "0.1.0", offline: true, authRequired: false, cliPath });
    const tools = await server.request("/api/tools");
    const calculator = tools.body.tools.find((tool: { name: string }) => tool.name === "calculator");
    expect(calculator).toMatchObject({
      sideEffects: "pure",
      argsSchema: { type: "object" },
      source: "examples/calculator.ts",
    });
    const schema = await server.request("/api/schema/agent-spec.json");
    expect(schema.body.$id).toBe(agentSpecJsonSchema.$id);
    expect(schema.headers.get("content-type")).toContain("application/schema+json");
  });

  it("sends security headers, no CORS, and JSON 404s for unknown API routes", async () => {
    const response = await server.request("/api/nothing-here", {
      headers: { origin: "https://evil.example" },
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("not_found");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("x-powered-by")).toBeNull();
  });

  it("refuses a body over the default 1 MB limit with 413 and accepts one under it", async () => {
    const big = { version: 1, id: "big-agent", name: "Big", description: "x".repeat(1_100_000) };
    const refused = await server.request("/api/agents/validate", { method: "POST", json: big });
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe("payload_too_large");
    const fits = await server.request("/api/agents/validate", {
      method: "POST",
      json: { ...big, description: "x".repeat(3_000) },
    });
    expect(fits.status).toBe(200);
  });

  it("serves a page that explains how to build the designer when it is not built", async () => {
    const page = await server.request("/agents/some-agent", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("npm run build");
  });
});

describe("agents", () => {
  it("lists the example agents loaded into the empty store", async () => {
    const list = await server.request("/api/agents");
    const ids = list.body.agents.map((agent: { id: string }) => agent.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "support-triage",
        "sharded-research",
        "email-approval",
        "document-pipeline",
        "cached-retrieval",
      ]),
    );
    expect(list.body.agents[0]).toMatchObject({
      version: 1,
      updatedAt: expect.any(String),
      name: expect.any(String),
    });
    const file = JSON.parse(
      readFileSync(new URL("../../../apps/examples/agents/support-triage.json", import.meta.url), "utf8"),
    );
    expect((await server.request("/api/agents/support-triage")).body.spec).toEqual(AgentSpec.parse(file));
  });

  it("creates, reads, updates with optimistic concurrency, versions and deletes", async () => {
    const created = await server.request("/api/agents", { method: "POST", json: newSpec("crud-agent") });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: "crud-agent", version: 1 });
    expect(created.headers.get("location")).toBe("/api/agents/crud-agent");
    expect(
      (await server.request("/api/agents", { method: "POST", json: newSpec("crud-agent") })).status,
    ).toBe(409);

    const got = await server.request("/api/agents/crud-agent");
    expect(got.body).toMatchObject({ id: "crud-agent", version: 1, spec: newSpec("crud-agent") });

    const updated = await server.request("/api/agents/crud-agent", {
      method: "PUT",
      json: { spec: newSpec("crud-agent", "Renamed"), baseVersion: 1, message: "rename" },
    });
    expect(updated.body).toEqual({ id: "crud-agent", version: 2 });
    const stale = await server.request("/api/agents/crud-agent", {
      method: "PUT",
      json: { spec: newSpec("crud-agent", "Stale"), baseVersion: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "conflict", details: { currentVersion: 2, baseVersion: 1 } });
    const mismatch = await server.request("/api/agents/crud-agent", {
      method: "PUT",
      json: { spec: newSpec("other-id"), baseVersion: 2 },
    });
    expect(mismatch.status).toBe(400);

    const versions = await server.request("/api/agents/crud-agent/versions");
    expect(versions.body.versions.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual(
      [
        [1, "Fresh agent"],
        [2, "Renamed"],
      ],
    );
    expect((await server.request("/api/agents/crud-agent/versions/1")).body.spec.name).toBe("Fresh agent");
    expect((await server.request("/api/agents/crud-agent/versions/9")).status).toBe(404);

    expect((await server.request("/api/agents/crud-agent", { method: "DELETE" })).status).toBe(204);
    expect((await server.request("/api/agents/crud-agent")).status).toBe(404);
    expect((await server.request("/api/agents/crud-agent", { method: "DELETE" })).status).toBe(404);
    expect((await server.request("/api/agents/crud-agent/versions")).status).toBe(404);
  });

  it("refuses an invalid spec with 422 and path-precise issues", async () => {
    const spec = { ...newSpec("bad-agent"), tools: [{ name: "final_response", impl: { kind: "mock" } }] };
    const response = await server.request("/api/agents", { method: "POST", json: spec });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("invalid_spec");
    expect(response.body.details.issues[0]).toMatchObject({
      path: "$.tools[0].name",
      code: "reserved_tool_name",
    });
  });

  it("validates without saving", async () => {
    const good = await server.request("/api/agents/validate", { method: "POST", json: newSpec("checked") });
    expect(good.body).toEqual({ ok: true, issues: [] });
    const bad = await server.request("/api/agents/validate", {
      method: "POST",
      json: {
        ...newSpec("checked"),
        edges: [{ id: "e1", kind: "order", source: "lookup", target: "ghost" }],
      },
    });
    expect(bad.body.ok).toBe(false);
    expect(bad.body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "unknown_tool", path: expect.stringMatching(/^\$\.edges\[0\]/) }),
      ]),
    );
    expect((await server.request("/api/agents/checked")).status).toBe(404);
  });

  it("exports JSON that imports back unchanged, and TypeScript", async () => {
    const json = await server.request("/api/agents/sharded-research/export?format=json");
    const imported = await server.request("/api/agents/import", { method: "POST", json: json.body });
    expect(imported.body).toEqual({ spec: json.body, issues: [] });
    const ts = await server.request("/api/agents/sharded-research/export?format=ts");
    expect(ts.headers.get("content-type")).toContain("text/plain");
    expect(ts.text).toContain('from "@waddle/server/runtime"');
    expect((await server.request("/api/agents/sharded-research/export?format=xml")).status).toBe(400);
    expect((await server.request("/api/agents/nobody/export")).status).toBe(404);
  });
});

describe("import of PenguiFlow planning hints", () => {
  const hints = {
    ordering_hints: ["triage", "retrieve", "summarize"],
    parallel_groups: [["search_a", "search_b"]],
    sequential_only: ["send"],
    disallow_nodes: ["delete_all"],
    prefer_nodes: ["retrieve"],
    budget_hints: { max_parallel: 2, max_cost_usd: 0.5 },
  };

  it.each([
    ["a bare dict", hints],
    ["a {planning_hints} wrapper", { planning_hints: hints }],
  ])("turns %s into a spec with placeholders, order edges and groups", async (_label, body) => {
    const response = await server.request("/api/agents/import", { method: "POST", json: body });
    expect(response.status).toBe(200);
    const spec = response.body.spec as AgentSpec;
    expect(spec.hints).toMatchObject({
      ordering_hints: hints.ordering_hints,
      budget_hints: hints.budget_hints,
    });
    expect(spec.tools.map((tool) => tool.name)).toEqual([
      "triage",
      "retrieve",
      "summarize",
      "search_a",
      "search_b",
      "send",
      "delete_all",
    ]);
    expect(spec.tools.every((tool) => tool.impl.kind === "mock")).toBe(true);
    expect(spec.edges.map((edge) => [edge.kind, edge.source, edge.target])).toEqual([
      ["order", "triage", "retrieve"],
      ["order", "retrieve", "summarize"],
    ]);
    expect(spec.groups).toEqual([
      expect.objectContaining({ kind: "parallel", members: ["search_a", "search_b"] }),
    ]);
  });

  it("merges hints into a base spec", async () => {
    const base = newSpec("merged");
    const response = await server.request("/api/agents/import", {
      method: "POST",
      json: { base, planning_hints: { ordering_hints: ["lookup", "calc"], max_parallel: 3 } },
    });
    const spec = response.body.spec as AgentSpec;
    expect(spec.id).toBe("merged");
    expect(spec.tools.map((tool) => tool.name)).toEqual(["lookup", "calc"]);
    expect(spec.edges).toEqual([
      { id: "order-lookup-calc", kind: "order", source: "lookup", target: "calc" },
    ]);
    expect(spec.hints.budget_hints.max_parallel).toBe(3);
  });

  it.each([
    ["a negative cost", { budget_hints: { max_cost_usd: -1 } }, "$.budget_hints.max_cost_usd"],
    [
      "a fractional max_parallel",
      { ordering_hints: ["a"], max_parallel: 2.5 },
      "$.budget_hints.max_parallel",
    ],
    [
      "too many ordering hints",
      { ordering_hints: Array.from({ length: 501 }, (_, i) => `t${i}`) },
      "$.ordering_hints",
    ],
  ])("names the hint to fix for %s", async (_label, body, path) => {
    const response = await server.request("/api/agents/import", { method: "POST", json: body });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.message).toContain(path.slice(2));
    expect(response.body.details.issues[0].path).toBe(path);
  });

  it("answers issues for a broken spec and 400 for something that is neither", async () => {
    const broken = await server.request("/api/agents/import", {
      method: "POST",
      json: { version: 1, id: "BAD ID", name: "x" },
    });
    expect(broken.body.spec).toBeNull();
    expect(broken.body.issues[0]).toMatchObject({ path: "$.id", code: "invalid_slug" });
    expect((await server.request("/api/agents/import", { method: "POST", json: [1, 2] })).status).toBe(400);
    expect(
      (await server.request("/api/agents/import", { method: "POST", json: { ordering_hints: "nope" } }))
        .status,
    ).toBe(400);
  });
});

describe("runs (without starting one)", () => {
  it("lists, and answers 404 and 400 for unknown and malformed run ids", async () => {
    expect((await server.request("/api/runs")).body).toEqual({ runs: [] });
    expect((await server.request("/api/runs?agentId=support-triage&status=running,paused")).body).toEqual({
      runs: [],
    });
    expect((await server.request("/api/runs/run_unknown")).status).toBe(404);
    expect((await server.request("/api/runs/run_unknown/events")).status).toBe(404);
    expect((await server.request("/api/runs/not-a-run-id")).status).toBe(400);
    expect((await server.request("/api/runs/run_unknown/cancel", { method: "POST" })).status).toBe(404);
    expect((await server.request("/api/runs?status=bogus")).status).toBe(400);
    const unknownAgent = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "ghost", query: "hi" },
    });
    expect(unknownAgent.status).toBe(404);
  });
});
