import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../testing/start-postgres.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const skip = getMissingPartsReason(["postgres"]);

describe.skipIf(skip)("a server on PostgreSQL (WADDLE_DATABASE_URL)", () => {
  let postgres: TestPostgres;
  let server: TestServer;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    server = await startTestServer({ databaseUrl: await postgres.createDatabase() });
  });
  afterAll(async () => {
    await server?.stop();
    await postgres?.destroy();
  });

  it("loads the example agents and runs one to its end, every event stored in order", async () => {
    const { body } = await server.request("/api/agents");
    expect(body.agents.map((agent: { id: string }) => agent.id)).toContain("support-triage");
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "support-triage", query: "My invoice shows a duplicate charge" },
    });
    expect(started.status).toBe(202);
    const run = await waitForRun(server, started.body.runId);
    expect(run.status).toBe("finished");
    const events = (await server.request(`/api/runs/${run.id}/events`)).body.events as { seq: number }[];
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(run.lastSeq).toBe(events.length);
  });
});
