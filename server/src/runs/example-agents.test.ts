import { readFileSync } from "node:fs";
import { listExampleAgentFiles } from "@waddle/examples";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentSpec, RunEventsResponse, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const agentsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../apps/examples/agents");
const examples = listExampleAgentFiles(agentsDir).map(({ file }) =>
  AgentSpec.parse(JSON.parse(readFileSync(file, "utf8"))),
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

const PAUSED_OR_DONE = new Set(["paused", "finished", "failed", "cancelled", "interrupted"] as const);

/** Every example agent, loaded into a fresh store, runs over REST on the offline model to an answer. */
describe("the example agents on a real server", () => {
  it.each(examples.map((spec) => [spec.id, spec] as const))(
    "%s runs to answer_complete on the offline model",
    async (id, spec) => {
      const started = await server.request("/api/runs", {
        method: "POST",
        json: { agentId: id, query: spec.sampleQueries[0] ?? "hello" },
      });
      expect(started.status).toBe(202);
      const runId = started.body.runId as string;
      let run = await waitForRun(server, runId, PAUSED_OR_DONE);
      // A person approves every approval pause (email-approval's send_email).
      while (run.status === "paused" && run.pause) {
        const resumed = await server.request(`/api/runs/${runId}/resume`, {
          method: "POST",
          json: { resumeToken: run.pause.resumeToken, decision: "approve" },
        });
        expect(resumed.status).toBeLessThan(300);
        run = await waitForRun(server, runId, PAUSED_OR_DONE);
      }
      expect(run.status).toBe("finished");
      expect(run.result).toMatchObject({ kind: "finish", reason: "answer_complete" });

      const stored = RunEventsResponse.parse(
        (await server.request(`/api/runs/${runId}/events?after=0`)).body,
      );
      const seqs = stored.events.map((event: RunEvent) => event.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      const toolsRun = new Set(
        stored.events.flatMap((event) => (event.type === "tool_end" ? [event.data.tool] : [])),
      );
      // Module tools really ran (writing-review uses text_stats and clock_now from apps/examples/tools).
      for (const tool of spec.tools.filter((candidate) => candidate.impl.kind === "module")) {
        expect(toolsRun).toContain(tool.name);
      }
    },
  );
});
