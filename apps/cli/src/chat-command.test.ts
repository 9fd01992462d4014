import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SessionRecord } from "@waddle/protocol";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./main.js";
import { createTestIo } from "./testing/create-test-io.js";

const work = mkdtempSync(path.join(tmpdir(), "waddle-chat-"));
let server: WaddleServer;
beforeAll(async () => {
  server = await createWaddleServer({
    port: 0,
    dataDir: path.join(work, "server"),
    logLevel: "silent",
    designerDir: null,
    env: {},
    importModule: (file) => import(/* @vite-ignore */ file),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** A terminal that types these lines, one per prompt, and records the prompts it saw. */
function typing(lines: string[]) {
  const prompts: string[] = [];
  return {
    prompts,
    prompt: async (question: string) => {
      prompts.push(question);
      return lines.shift() ?? "/quit";
    },
  };
}

async function getSession(id: string): Promise<SessionRecord> {
  return (await (await fetch(`${server.url}/api/sessions/${id}`)).json()) as SessionRecord;
}

describe("waddle chat", () => {
  it("chats over several turns of one session on a server, and lists its tasks", async () => {
    const terminal = typing([
      "My invoice shows a duplicate charge",
      "/tasks",
      "And the refund?",
      "/bogus",
      "/quit",
    ]);
    const { io, stdout, stderr } = createTestIo({ cwd: work, prompt: terminal.prompt });
    expect(await runCli(["chat", "support-triage", "--server", server.url], io)).toBe(0);
    const sessionId = /session (ses_[0-9a-f]+)/.exec(stderr())![1]!;
    const session = await getSession(sessionId);
    expect(session.turns.map((turn) => [turn.turn, turn.query, turn.status])).toEqual([
      [1, "My invoice shows a duplicate charge", "finished"],
      [2, "And the refund?", "finished"],
    ]);
    expect(stdout()).toMatch(/Duplicate billing charges are reversed/);
    expect(stdout()).toContain("No background tasks.");
    expect(stdout()).toContain("Unknown command /bogus.");
    expect(stderr()).toMatch(/turn 2 \(run run_/);

    // Coming back to the session continues it.
    const again = typing(["One more thing"]);
    const next = createTestIo({ cwd: work, prompt: again.prompt });
    expect(
      await runCli(["chat", "support-triage", "--server", server.url, "--session", sessionId], next.io),
    ).toBe(0);
    expect((await getSession(sessionId)).turns).toHaveLength(3);
  });

  it("runs in-process on a data folder when no server is named", async () => {
    const terminal = typing(["My invoice shows a duplicate charge", "/approve"]);
    const { io, stdout, stderr } = createTestIo({ cwd: work, prompt: terminal.prompt });
    expect(await runCli(["chat", "support-triage", "--data-dir", path.join(work, "local")], io)).toBe(0);
    expect(stderr()).toMatch(/in-process on /);
    expect(stdout()).toMatch(/Duplicate billing charges are reversed/);
    expect(stdout()).toContain("Nothing waits for a decision.");
  });

  it("pins a new session to what --channel serves, not the latest save", async () => {
    const agent = (await (await fetch(`${server.url}/api/agents/support-triage`)).json()) as {
      spec: { name: string };
      version: number;
    };
    const post = (route: string, method: string, body: unknown) =>
      fetch(`${server.url}${route}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const staged = agent.version;
    const saved = await post("/api/agents/support-triage", "PUT", {
      spec: { ...agent.spec, name: `${agent.spec.name} (edited)` },
      baseVersion: staged,
    });
    expect(saved.status).toBe(200);
    const released = await post("/api/agents/support-triage/releases", "POST", {
      version: staged,
      channel: "staging",
    });
    expect(released.status, await released.clone().text()).toBe(201);
    const { io, stderr } = createTestIo({ cwd: work, prompt: typing(["/quit"]).prompt });
    expect(await runCli(["chat", "support-triage", "--server", server.url, "--channel", "staging"], io)).toBe(
      0,
    );
    const sessionId = /session (ses_[0-9a-f]+)/.exec(stderr())![1]!;
    expect((await getSession(sessionId)).agentVersion).toBe(staged);

    const both = createTestIo({ cwd: work, prompt: typing([]).prompt });
    const args = [
      "chat",
      "support-triage",
      "--server",
      server.url,
      "--channel",
      "staging",
      "--session",
      sessionId,
    ];
    expect(await runCli(args, both.io)).toBe(2);
    expect(both.stderr()).toMatch(/--channel picks a new session's version/);
  });

  it("needs a terminal and one agent", async () => {
    const noTerminal = createTestIo({ cwd: work });
    expect(await runCli(["chat", "support-triage", "--server", server.url], noTerminal.io)).toBe(2);
    expect(noTerminal.stderr()).toMatch(/chat needs a terminal/);
    const noAgent = createTestIo({ cwd: work, prompt: typing([]).prompt });
    expect(await runCli(["chat"], noAgent.io)).toBe(2);
  });
});

describe("waddle chat with a key limited to some agents (issue 30)", () => {
  const TOKEN = "bootstrap-token-for-the-chat-with-a-key";
  let guarded: WaddleServer;
  beforeAll(async () => {
    guarded = await createWaddleServer({
      port: 0,
      dataDir: path.join(work, "guarded"),
      logLevel: "silent",
      designerDir: null,
      env: {},
      token: TOKEN,
      importModule: (file) => import(/* @vite-ignore */ file),
    });
  });
  afterAll(() => guarded.close());

  it("chats on the key's agent: the session and each of its turns", async () => {
    const created = await fetch(`${guarded.url}/api/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "support", role: "runner", agents: ["support-triage"] }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const terminal = typing(["My invoice shows a duplicate charge", "And the refund?"]);
    const { io, stdout, stderr } = createTestIo({ cwd: work, prompt: terminal.prompt });
    expect(await runCli(["chat", "support-triage", "--server", guarded.url, "--token", key], io)).toBe(0);
    expect(stdout()).not.toMatch(/404|outside the agents/);
    expect(stderr()).toMatch(/turn 2 \(run run_/);
    const sessionId = /session (ses_[0-9a-f]+)/.exec(stderr())![1]!;
    const session = await guarded.store.sessions.get(sessionId);
    expect(session?.turns.map((turn) => [turn.turn, turn.status])).toEqual([
      [1, "finished"],
      [2, "finished"],
    ]);
  });
});
