import { describe, expect, it } from "vitest";
import { createLogger } from "../shared/logger.js";
import { MemoryAuditStore } from "../store/audit/memory-audit-store.js";
import { LOCAL_ACTOR } from "./actor.js";
import { AuditTrail, FAILED_SIGN_IN_WINDOW_MS, getArgsDiff } from "./audit-trail.js";

function trailAt(clock: { now: number }) {
  const store = new MemoryAuditStore();
  const trail = new AuditTrail({
    store,
    logger: createLogger({ level: "silent" }),
    redactor: { redactText: (text) => text.replaceAll("hunter2-known-secret", "[secret]") },
    now: () => clock.now,
  });
  return { store, trail };
}

describe("AuditTrail", () => {
  it("writes failed sign-ins at most once per address per minute, with the count since the last entry", async () => {
    const clock = { now: Date.UTC(2026, 10, 27, 2, 0, 0) };
    const { store, trail } = trailAt(clock);
    for (let attempt = 0; attempt < 5; attempt += 1) trail.noteFailedSignIn("10.0.0.9");
    trail.noteFailedSignIn("10.0.0.8");
    await trail.flush();
    const counts = async (ip: string) =>
      (await store.list({ limit: 100, action: "auth.failed" }))
        .filter((entry) => entry.target.id === ip)
        .map((entry) => entry.details["count"])
        .reverse();
    // The first at once, the 4 others of that minute together.
    expect(await counts("10.0.0.9")).toEqual([1, 4]);
    expect(await counts("10.0.0.8")).toEqual([1]);
    // Within the minute after that entry: counted, not written.
    clock.now += FAILED_SIGN_IN_WINDOW_MS / 2;
    trail.noteFailedSignIn("10.0.0.9");
    trail.noteFailedSignIn("10.0.0.9");
    expect(await counts("10.0.0.9")).toEqual([1, 4]);
    // A minute on, the next failure writes them with it.
    clock.now += FAILED_SIGN_IN_WINDOW_MS;
    trail.noteFailedSignIn("10.0.0.9");
    await new Promise((resolve) => setImmediate(resolve));
    expect(await counts("10.0.0.9")).toEqual([1, 4, 3]);
    await trail.flush();
    expect(await counts("10.0.0.9")).toEqual([1, 4, 3]);
  });

  it("never writes a secret: secret-named fields and known secret values are replaced", async () => {
    const { store, trail } = trailAt({ now: Date.now() });
    await trail.record(
      LOCAL_ACTOR,
      {
        action: "credential.put",
        target: { type: "credential", id: "X" },
        details: {
          kind: "secret",
          value: "raw-value",
          apiKey: "sk-raw",
          nested: { authorization: "Bearer abc", token: "t", note: "uses hunter2-known-secret" },
        },
      },
      "127.0.0.1",
    );
    const [entry] = await store.list({ limit: 1 });
    expect(entry).toMatchObject({ actor: "local", ip: "127.0.0.1", details: { kind: "secret" } });
    const text = JSON.stringify(entry);
    for (const secret of ["raw-value", "sk-raw", "Bearer abc", "hunter2-known-secret"])
      expect(text).not.toContain(secret);
    expect(text).toContain("[secret]");
  });

  it("diffs edited args field by field, hiding secret-named ones", () => {
    expect(
      getArgsDiff(
        { to: "a@x", subject: "Hi", password: "p1" },
        { to: "b@x", subject: "Hi", password: "p2", cc: "c" },
      ),
    ).toEqual([
      { field: "to", before: "a@x", after: "b@x" },
      { field: "password", before: "[redacted]", after: "[redacted]" },
      { field: "cc", after: "c" },
    ]);
  });

  it("logs a write that fails instead of failing the request", async () => {
    const lines: string[] = [];
    const trail = new AuditTrail({
      store: { append: () => Promise.reject(new Error("disk full")), list: async () => [] },
      logger: createLogger({ level: "error" }),
    });
    const original = process.stderr.write.bind(process.stderr);
    const originalOut = process.stdout.write.bind(process.stdout);
    const capture = (chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    };
    process.stderr.write = capture as typeof process.stderr.write;
    process.stdout.write = capture as typeof process.stdout.write;
    try {
      expect(
        await trail.record(LOCAL_ACTOR, { action: "agent.deleted", target: { type: "agent", id: "a" } }),
      ).toBe(undefined);
    } finally {
      process.stderr.write = original;
      process.stdout.write = originalOut;
    }
    expect(lines.join("")).toMatch(/audit log could not be written.*disk full/);
  });
});
