import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./main.js";
import { createTestIo } from "./testing/create-test-io.js";

const work = mkdtempSync(path.join(tmpdir(), "waddle-cli-resume-"));
let server: WaddleServer;
beforeAll(async () => {
  server = await createWaddleServer({
    port: 0,
    dataDir: path.join(work, "data"),
    logLevel: "silent",
    designerDir: null,
    env: {},
  });
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const createIo = (prompt?: (question: string) => Promise<string>) =>
  createTestIo({
    cwd: work,
    env: { WADDLE_DATA_DIR: path.join(work, "no-data") },
    ...(prompt ? { prompt } : {}),
  });

describe("waddle resume", () => {
  it("answers a run left paused on the server, follows it from the pause, and refuses a finished one", async () => {
    const first = createIo();
    const started = await runCli(["run", "email-approval", "Email Dana", "--server", server.url], first.io);
    expect(started, first.stderr()).toBe(3);
    const hint = /waddle resume (run_[0-9a-f]+) --server (\S+) --approve/.exec(first.stderr());
    expect(hint, first.stderr()).not.toBeNull();
    const [, runId, url] = hint!;
    expect(url).toBe(server.url);

    const questions: string[] = [];
    const second = createIo(async (question) => (questions.push(question), "y"));
    expect(await runCli(["resume", runId!, "--server", url!], second.io), second.stderr()).toBe(0);
    expect(questions[0]).toMatch(/^Approve send_email /);
    expect(second.stdout()).toContain("⏵ resumed: approve");
    expect(second.stdout()).toContain("■ answer_complete");
    // only what came after the pause: the steps before it were printed by the first command
    expect(second.stdout()).not.toContain("lookup_contact");
    expect((await server.store.getRun(runId!))?.status).toBe("finished");

    const third = createIo();
    expect(await runCli(["resume", runId!, "--server", url!, "--approve"], third.io)).toBe(1);
    expect(third.stderr()).toContain("is finished, not paused");
  }, 60_000);

  it("rejects with --reject, and needs a server and one run id", async () => {
    const first = createIo();
    expect(await runCli(["run", "email-approval", "Email Dana", "--server", server.url], first.io)).toBe(3);
    const runId = /waddle resume (run_[0-9a-f]+)/.exec(first.stderr())![1]!;
    const rejected = createIo();
    expect(await runCli(["resume", runId, "--server", server.url, "--reject"], rejected.io)).toBe(0);
    expect(rejected.stdout()).toContain("⏵ resumed: reject");

    const usage = createIo();
    expect(await runCli(["resume", runId], usage.io)).toBe(2);
    expect(usage.stderr()).toContain("resume needs --server URL");
    expect(await runCli(["resume", "--server", server.url], usage.io)).toBe(2);
    const unknown = createIo();
    expect(await runCli(["resume", "run_0000000000000000", "--server", server.url], unknown.io)).toBe(1);
    expect(unknown.stderr()).toMatch(/not_found|does not exist|No run/i);
  }, 60_000);
});
