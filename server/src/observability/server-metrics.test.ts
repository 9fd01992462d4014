import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const TOKEN = "metrics-test-token-0123456789abcdef";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN });
});
afterAll(() => server.stop());

type Families = ReturnType<typeof parsePrometheusTextFormat>;

async function scrape(): Promise<{ families: Families; text: string }> {
  const response = await server.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return { families: parsePrometheusTextFormat(response.text), text: response.text };
}

/** The value of one sample: 0 when the family or the labels have none yet. */
function valueOf(families: Families, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((entry) => entry.name === name);
  const sample = family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  if (!sample) return 0;
  return Number(sample.value ?? sample.count ?? 0);
}

async function run(agentId: string, query: string, until?: Set<"paused">): Promise<string> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId, query },
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const runId = started.body.runId as string;
  await waitForRun(server, runId, until);
  return runId;
}

describe("GET /metrics", () => {
  it("asks for the token like the API", async () => {
    const response = await server.request("/metrics");
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "unauthorized" });
  });

  it("counts runs, LLM calls, tool calls and auto-seq as runs happen, with no user text as a label", async () => {
    const before = (await scrape()).families;
    const agent = { agent_id: "sharded-research" };
    const query = "What changed in battery recycling in 2026?";
    await run("sharded-research", query);
    await run("document-pipeline", "Summarize the contracts in the Q3 document folder");
    const { families, text } = await scrape();
    expect(valueOf(families, "waddle_runs_started_total", agent)).toBe(
      valueOf(before, "waddle_runs_started_total", agent) + 1,
    );
    expect(valueOf(families, "waddle_runs_ended_total", { ...agent, status: "finished" })).toBe(
      valueOf(before, "waddle_runs_ended_total", { ...agent, status: "finished" }) + 1,
    );
    const duration = families.find((family) => family.name === "waddle_run_duration_seconds");
    expect(duration?.type).toBe("HISTOGRAM");
    // (The parser folds a histogram's label sets into its buckets: every ended run is in +Inf.)
    const ended = duration!.metrics.reduce(
      (total, metric) => total + Number(metric.buckets?.["+Inf"] ?? 0),
      0,
    );
    expect(ended).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, "waddle_llm_calls_total", { ...agent, model: "offline" })).toBeGreaterThan(0);
    expect(
      valueOf(families, "waddle_llm_tokens_total", { ...agent, model: "offline", type: "input" }),
    ).toBeGreaterThan(0);
    const tools = families.find((family) => family.name === "waddle_tool_calls_total")!;
    const ours = tools.metrics.filter((metric) => metric.labels?.agent_id === "sharded-research");
    expect(ours.length).toBeGreaterThan(0);
    for (const metric of ours) expect(metric.labels?.outcome).toMatch(/^(ok|error)$/);
    expect(
      valueOf(families, "waddle_auto_seq_calls_saved_total", { agent_id: "document-pipeline" }),
    ).toBeGreaterThan(0);
    // Labels are ids, models, tools and statuses: never the query.
    expect(text).not.toContain("battery");
    for (const family of families)
      for (const metric of family.metrics)
        for (const key of Object.keys(metric.labels ?? {}))
          expect([
            "agent_id",
            "model",
            "purpose",
            "type",
            "tool",
            "outcome",
            "status",
            "reason",
            "le",
          ]).toContain(key);
  });

  it("shows runs waiting at a pause and the live sockets", async () => {
    const before = (await scrape()).families;
    await run("email-approval", "Email Dana that the Q3 report is ready for review", new Set(["paused"]));
    const socket: Socket = connect(server.url, {
      transports: ["websocket"],
      reconnection: false,
      auth: { token: TOKEN },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve());
        socket.on("connect_error", reject);
      });
      const { families } = await scrape();
      expect(valueOf(families, "waddle_runs_paused")).toBe(valueOf(before, "waddle_runs_paused") + 1);
      expect(valueOf(families, "waddle_pauses_total", { agent_id: "email-approval" })).toBe(
        valueOf(before, "waddle_pauses_total", { agent_id: "email-approval" }) + 1,
      );
      expect(valueOf(families, "waddle_live_sockets")).toBe(1);
      expect(families.find((family) => family.name === "waddle_runs_active")?.type).toBe("GAUGE");
      expect(families.find((family) => family.name === "waddle_otel_dropped_spans_total")?.type).toBe(
        "COUNTER",
      );
    } finally {
      socket.disconnect();
    }
  });
});
