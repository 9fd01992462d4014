import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import express from "express";
import type { AuditEntry, RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { createAuditRoutes } from "../http/audit-routes.js";
import { createErrorHandler } from "../http/error-handler.js";
import { createLogger } from "../shared/logger.js";
import { MemoryAuditStore } from "../store/audit/memory-audit-store.js";
import { LOCAL_ACTOR, setActor, type Actor, type Role } from "./actor.js";

const CREDENTIAL_VALUE = "sk-audit-never-logged-0123456789abcdef";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: "1000/min" });
});
afterAll(() => server?.stop());

async function auditLog(query = ""): Promise<AuditEntry[]> {
  const answer = await server.request(`/api/audit${query}`);
  expect(answer.status).toBe(200);
  return answer.body.entries as AuditEntry[];
}

/** The newest entry of `action` on `targetId`. */
async function lastEntry(action: string, targetId: string): Promise<AuditEntry | undefined> {
  return (await auditLog(`?action=${action}&limit=1000`)).find((entry) => entry.target.id === targetId);
}

async function events(runId: string): Promise<RunEvent[]> {
  return (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];
}

async function pausedRun(query: string) {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId: "email-approval", query },
  });
  expect(started.status).toBe(202);
  const run = await waitForRun(server, started.body.runId, new Set(["paused", "failed", "finished"]));
  expect(run.status).toBe("paused");
  return run;
}

describe("the audit log records each action with who did it", () => {
  it("agents: created, saved, imported, deleted", async () => {
    const spec = { ...(await server.request("/api/agents/support-triage")).body.spec, id: "audited-agent" };
    const created = await server.request("/api/agents", { method: "POST", json: spec });
    expect(created.status).toBe(201);
    expect(await lastEntry("agent.created", "audited-agent")).toMatchObject({
      actor: "local",
      actorKeyId: null,
      target: { type: "agent", id: "audited-agent" },
      details: { version: 1 },
    });
    const saved = await server.request("/api/agents/audited-agent", {
      method: "PUT",
      json: { spec, baseVersion: 1, message: "tighter prompt" },
    });
    expect(saved.status).toBe(200);
    expect(await lastEntry("agent.saved", "audited-agent")).toMatchObject({
      details: { version: 2, baseVersion: 1, message: "tighter prompt" },
    });
    const imported = await server.request("/api/agents/import", {
      method: "POST",
      json: { ...spec, id: "imported-agent" },
    });
    expect(imported.status).toBe(200);
    expect(await lastEntry("agent.imported", "imported-agent")).toMatchObject({ details: { ok: true } });
    expect((await server.request("/api/agents/audited-agent", { method: "DELETE" })).status).toBe(204);
    const deleted = await lastEntry("agent.deleted", "audited-agent");
    expect(deleted).toMatchObject({ actor: "local", target: { type: "agent", id: "audited-agent" } });
    expect(deleted?.ip).toMatch(/127\.0\.0\.1/);
    // A refused action is not recorded.
    expect((await server.request("/api/agents/audited-agent", { method: "DELETE" })).status).toBe(404);
    expect(
      (await auditLog("?action=agent.deleted")).filter((e) => e.target.id === "audited-agent"),
    ).toHaveLength(1);
  });

  it("runs: started and cancelled", async () => {
    const run = await pausedRun("Email Dana: cancel me");
    expect(await lastEntry("run.started", run.id)).toMatchObject({
      details: { via: "api", agentId: "email-approval" },
    });
    expect((await server.request(`/api/runs/${run.id}/cancel`, { method: "POST" })).status).toBe(200);
    expect(await lastEntry("run.cancelled", run.id)).toMatchObject({
      details: { agentId: "email-approval", status: "cancelled" },
    });
  });

  it("a pause decision: the decision, the args diff, and the actor in the run's resumed event", async () => {
    const run = await pausedRun("Email Dana that the Q3 report is ready");
    const args = { ...(run.pause!.payload["args"] as Record<string, unknown>), to: "sam@example.com" };
    const resumed = await server.request(`/api/runs/${run.id}/resume`, {
      method: "POST",
      json: { resumeToken: run.pause!.resumeToken, decision: "edit", args, userInput: "  Sam owns it now " },
    });
    expect(resumed.status).toBe(202);
    const entry = await lastEntry("run.decision", run.id);
    expect(entry).toMatchObject({
      actor: "local",
      details: {
        decision: "edit",
        agentId: "email-approval",
        reason: "approval_required",
        note: "Sam owns it now",
      },
    });
    const diff = entry!.details["argsDiff"] as { field: string; before?: unknown; after?: unknown }[];
    expect(diff).toHaveLength(1);
    expect(diff[0]).toMatchObject({ field: "to", after: "sam@example.com" });
    expect(diff[0]!.before).not.toBe("sam@example.com");
    await waitForRun(server, run.id);
    const decided = (await events(run.id)).find((event) => event.type === "resumed");
    expect(decided?.data).toMatchObject({ decision: "edit", note: "Sam owns it now" });
    // The local user of a server without keys is in the audit log, never named in the run's events.
    expect(decided?.data).not.toHaveProperty("actor");
  });

  it("sessions: started, merge decision (with the actor in merge_decided), cancelled", async () => {
    const created = await server.request("/api/sessions", {
      method: "POST",
      json: { agentId: "support-triage" },
    });
    const { sessionId } = created.body as { sessionId: string };
    expect(await lastEntry("session.started", sessionId)).toMatchObject({
      target: { type: "session", id: sessionId },
      details: { agentId: "support-triage" },
    });
    await server.store.sessions.update(sessionId, () => ({
      events: [
        {
          type: "merge_pending",
          data: {
            mergeId: "merge_1",
            name: "research",
            strategy: "HUMAN_GATED",
            tasks: [{ taskId: "t1", runId: "run_t1", name: "research", status: "completed", result: "x" }],
          },
        },
      ],
      result: undefined,
    }));
    const decided = await server.request(`/api/sessions/${sessionId}/merges/merge_1`, {
      method: "POST",
      json: { decision: "approve", note: "looks right" },
    });
    expect(decided.status).toBe(202);
    // A turn, by the turn route or its alias: a run started by the API, with its session and agent.
    for (const [path, json] of [
      [`/api/sessions/${sessionId}/turns`, { query: "A question" }],
      ["/api/runs", { sessionId, query: "And another" }],
    ] as const) {
      const turn = await server.request(path, { method: "POST", json });
      expect(turn.status, path).toBe(202);
      expect(await lastEntry("run.started", turn.body.runId)).toMatchObject({
        actor: "local",
        details: { via: "api", agentId: "support-triage", sessionId, turn: turn.body.turn },
      });
      await waitForRun(server, turn.body.runId);
    }
    expect(await lastEntry("session.merge_decision", sessionId)).toMatchObject({
      details: { mergeId: "merge_1", decision: "approve", note: "looks right" },
    });
    const log = (await server.request(`/api/sessions/${sessionId}/events`)).body.events as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(log.find((event) => event.type === "merge_decided")?.data).toMatchObject({ actor: "local" });
    expect((await server.request(`/api/sessions/${sessionId}`, { method: "DELETE" })).status).toBe(200);
    expect(await lastEntry("session.cancelled", sessionId)).toBeDefined();
  });

  it("credentials and allow-lists: put, deleted, added, removed; never a credential's value", async () => {
    const put = await server.request("/api/credentials/AUDIT_SECRET", {
      method: "PUT",
      json: { kind: "secret", value: CREDENTIAL_VALUE },
    });
    expect(put.status).toBe(200);
    expect(await lastEntry("credential.put", "AUDIT_SECRET")).toMatchObject({
      target: { type: "credential", id: "AUDIT_SECRET" },
      details: { kind: "secret" },
    });
    const added = await server.request("/api/allowlist", {
      method: "PUT",
      json: { http: ["api.example.com", "*.example.org"], llm: [] },
    });
    expect(added.status).toBe(200);
    expect(await lastEntry("allowlist.added", "api.example.com")).toMatchObject({
      target: { type: "allowlist:http" },
    });
    expect(await lastEntry("allowlist.added", "*.example.org")).toBeDefined();
    await server.request("/api/allowlist", { method: "PUT", json: { http: ["*.example.org"], llm: [] } });
    expect(await lastEntry("allowlist.removed", "api.example.com")).toBeDefined();
    expect(
      (await auditLog("?action=allowlist.added")).filter((e) => e.target.id === "*.example.org"),
    ).toHaveLength(1);
    expect((await server.request("/api/credentials/AUDIT_SECRET", { method: "DELETE" })).status).toBe(204);
    expect(await lastEntry("credential.deleted", "AUDIT_SECRET")).toBeDefined();

    // No secret anywhere in the log: the API's answer, and the rows on disk.
    expect(JSON.stringify(await auditLog("?limit=1000"))).not.toContain(CREDENTIAL_VALUE);
    const db = new Database(path.join(server.dataDir, "waddle.db"), { readonly: true });
    try {
      const rows = db.prepare("SELECT * FROM audit_log").all();
      expect(rows.length).toBeGreaterThan(5);
      expect(JSON.stringify(rows)).not.toContain(CREDENTIAL_VALUE);
      expect(JSON.stringify(rows)).not.toContain(CREDENTIAL_VALUE.slice(-8));
      // The table itself refuses changes.
      const writable = new Database(path.join(server.dataDir, "waddle.db"));
      try {
        expect(() => writable.prepare("DELETE FROM audit_log").run()).toThrow(/append-only/);
        expect(() => writable.prepare("UPDATE audit_log SET actor = 'mallory'").run()).toThrow(/append-only/);
      } finally {
        writable.close();
      }
    } finally {
      db.close();
    }
  });

  it("runs started on /v1 and /mcp count as run.started", async () => {
    const completion = await server.request("/v1/chat/completions", {
      method: "POST",
      json: { model: "support-triage", messages: [{ role: "user", content: "My invoice is wrong" }] },
    });
    expect(completion.status).toBe(200);
    const viaV1 = (await auditLog("?action=run.started&limit=1000")).find(
      (entry) => entry.details["via"] === "/v1",
    );
    expect(viaV1).toMatchObject({ actor: "local", details: { agentId: "support-triage" } });

    const headers = { accept: "application/json, text/event-stream" };
    const init = await server.request("/mcp", {
      method: "POST",
      headers,
      json: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
    });
    const sessionId = init.headers.get("mcp-session-id")!;
    expect(sessionId).toBeTruthy();
    const call = await server.request("/mcp", {
      method: "POST",
      headers: { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
      json: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "support-triage", arguments: { query: "Where is my parcel?" } },
      },
    });
    expect(call.status).toBe(200);
    const viaMcp = (await auditLog("?action=run.started&limit=1000")).find(
      (entry) => entry.details["via"] === "/mcp",
    );
    expect(viaMcp).toMatchObject({ actor: "local", details: { agentId: "support-triage" } });
  });
});

describe("GET /api/audit", () => {
  it("filters by action, actor and since, newest first, within limit", async () => {
    const all = await auditLog("?limit=1000");
    expect(all.length).toBeGreaterThan(3);
    const times = all.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(await auditLog("?limit=2")).toEqual(all.slice(0, 2));
    expect((await auditLog("?actor=local&limit=1000")).length).toBe(all.length);
    expect(await auditLog("?actor=nobody")).toEqual([]);
    const since = all[2]!.at;
    const recent = await auditLog(`?since=${encodeURIComponent(since)}&limit=1000`);
    expect(recent.every((entry) => entry.at >= since)).toBe(true);
    expect(recent.length).toBeLessThan(all.length);
    expect((await auditLog("?action=agent.created")).every((e) => e.action === "agent.created")).toBe(true);
  });

  it("answers bad queries 400 and has no route that edits or deletes the log", async () => {
    for (const query of ["?limit=0", "?limit=abc", "?since=yesterday", "?action=agent.renamed", "?extra=1"]) {
      const answer = await server.request(`/api/audit${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe("validation_failed");
    }
    const before = (await auditLog("?limit=1000")).length;
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect((await server.request("/api/audit", { method, json: {} })).status, method).toBe(404);
    }
    const first = (await auditLog("?limit=1000")).at(-1)!;
    expect((await server.request(`/api/audit/${first.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await auditLog("?limit=1000")).length).toBe(before);
  });

  it("is for admins only: 403 forbidden with details.permission audit:read", async () => {
    const store = new MemoryAuditStore();
    await store.append({
      id: "aud_1",
      at: new Date().toISOString(),
      actor: "alice",
      actorKeyId: "key_1",
      action: "key.created",
      target: { type: "key", id: "key_2" },
      details: { role: "viewer" },
    });
    const app = express();
    app.use((request, response, next) => {
      const role = request.header("x-test-role") as Role | undefined;
      if (role) {
        const actor: Actor = {
          kind: "key",
          name: `${role}-key`,
          keyId: `key_${role}`,
          role,
          agents: null,
          canDecide: false,
        };
        setActor(response, actor);
      }
      next();
    });
    app.use("/api", createAuditRoutes({ audit: store }));
    app.use(createErrorHandler(createLogger({ level: "silent" })));
    const listening = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    const { port } = listening.address() as { port: number };
    try {
      for (const role of ["viewer", "runner", "editor"] as const) {
        const answer = await fetch(`http://127.0.0.1:${port}/api/audit`, {
          headers: { "x-test-role": role },
        });
        expect(answer.status, role).toBe(403);
        expect(await answer.json()).toMatchObject({
          code: "forbidden",
          details: { permission: "audit:read" },
        });
      }
      const admin = await fetch(`http://127.0.0.1:${port}/api/audit`, {
        headers: { "x-test-role": "admin" },
      });
      expect(admin.status).toBe(200);
      expect(((await admin.json()) as { entries: unknown[] }).entries).toHaveLength(1);
      // The local user of a server without keys is an admin.
      expect(LOCAL_ACTOR.role).toBe("admin");
      expect((await fetch(`http://127.0.0.1:${port}/api/audit`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});

describe("the audit stores' code", () => {
  it("never updates or deletes an audit row", () => {
    const dir = path.resolve(import.meta.dirname, "../store/audit");
    for (const file of [
      "sqlite-audit-store.ts",
      "pg-audit-store.ts",
      "memory-audit-store.ts",
      "audit-rows.ts",
    ]) {
      const code = readFileSync(path.join(dir, file), "utf8");
      expect(code, file).not.toMatch(/\b(UPDATE|DELETE)\b/);
      expect(code, file).not.toMatch(/\.(splice|pop|shift)\(/);
    }
  });
});
