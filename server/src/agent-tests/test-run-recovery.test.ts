import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TestRunRecord, type TestCaseResult } from "@waddle/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const dirs: string[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const result = (caseId: string, status: TestCaseResult["status"]): TestCaseResult => ({
  caseId,
  runId: status === "queued" ? null : `run_${caseId}`,
  status,
  failures: [],
  llmCalls: 0,
  tokens: 0,
  costUsd: 0,
  durationMs: 0,
});

const record = (id: string, status: TestRunRecord["status"], cases: TestCaseResult[]): TestRunRecord => ({
  id,
  agentId: "support-triage",
  agentVersion: 1,
  status,
  totals: { passed: cases.filter((c) => c.status === "passed").length, failed: 0, skipped: 0 },
  cases,
  createdAt: new Date().toISOString(),
  finishedAt: status === "running" ? null : new Date().toISOString(),
});

describe("test runs left running by a stopped server", () => {
  it("are marked interrupted at the next start, their unfinished cases skipped; ended ones stay", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-test-run-recovery-"));
    dirs.push(dataDir);
    const first = await startTestServer({ dataDir });
    servers.push(first);
    const left = record("tr_left1", "running", [
      result("a", "passed"),
      result("b", "running"),
      result("c", "queued"),
    ]);
    const ended = record("tr_ended1", "passed", [result("a", "passed")]);
    await first.store.tests.saveTestRun(left);
    await first.store.tests.saveTestRun(ended);
    // what a crash leaves: the store written, the process gone (close() does not touch test runs)
    await first.close();
    servers.length = 0;

    const second = await startTestServer({ dataDir });
    servers.push(second);
    const recovered = TestRunRecord.parse((await second.request("/api/test-runs/tr_left1")).body);
    expect(recovered.status).toBe("interrupted");
    expect(recovered.finishedAt).not.toBeNull();
    expect(recovered.cases.map((c) => [c.caseId, c.status])).toEqual([
      ["a", "passed"],
      ["b", "skipped"],
      ["c", "skipped"],
    ]);
    expect(recovered.totals).toEqual({ passed: 1, failed: 0, skipped: 2 });
    expect(TestRunRecord.parse((await second.request("/api/test-runs/tr_ended1")).body)).toEqual(ended);
    // an interrupted test run cannot be cancelled again: it has ended
    expect((await second.request("/api/test-runs/tr_left1/cancel", { method: "POST" })).status).toBe(409);
  });
});
