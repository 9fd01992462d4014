import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentRecord, ChannelsResponse } from "@waddle/protocol";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./main.js";
import { ServerClient } from "./server-client.js";
import { createTestIo } from "./testing/create-test-io.js";

const work = mkdtempSync(path.join(tmpdir(), "waddle-cli-files-"));
let server: WaddleServer;
let client: ServerClient;
beforeAll(async () => {
  server = await createWaddleServer({
    port: 0,
    dataDir: mkdtempSync(path.join(work, "data-")),
    logLevel: "silent",
    designerDir: null,
    env: {},
    importModule: (file) => import(/* @vite-ignore */ file),
  });
  client = new ServerClient(server.url);
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const cli = async (...argv: string[]) => {
  const { io, stdout, stderr } = createTestIo({
    cwd: work,
    env: { WADDLE_DATA_DIR: path.join(work, "none") },
  });
  const code = await runCli([...argv, "--server", server.url], io);
  return { code, stdout: stdout(), stderr: stderr() };
};

const specFile = path.join(work, "repo/agents/support-triage.json");
type EditableSpec = { description?: string; tools: { name: string; requiresApproval?: boolean }[] };
const editSpec = (edit: (spec: EditableSpec) => void) => {
  const spec = JSON.parse(readFileSync(specFile, "utf8")) as EditableSpec;
  edit(spec);
  writeFileSync(specFile, JSON.stringify(spec, null, 2));
};
const getLatest = async () =>
  AgentRecord.parse((await client.request("GET", "/api/agents/support-triage")).json);

describe("agents as files", () => {
  it("pulls specs, suites and channels as stable files", async () => {
    const result = await cli("pull", "repo");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("pulled support-triage v1 (3 test cases)");
    const suite = JSON.parse(
      readFileSync(path.join(work, "repo/agents/support-triage.tests.json"), "utf8"),
    ) as {
      cases: unknown[];
    };
    expect(suite.cases).toHaveLength(3);
    expect(readFileSync(path.join(work, "repo/channels.json"), "utf8")).toBe("{}\n");
    const first = readFileSync(specFile, "utf8");
    expect(first).toMatch(/^\{\n {2}"/);
    expect((await cli("pull", "repo")).code).toBe(0);
    expect(readFileSync(specFile, "utf8")).toBe(first);
  });

  it("pushes an edited spec as a new version and skips the rest", async () => {
    editSpec((spec) => void (spec.description = "Edited in Git"));
    const result = await cli("push", "repo");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("saved support-triage v2 (was v1)");
    expect(result.stdout).toMatch(/unchanged \S+ v1/);
    expect((await getLatest()).spec.description).toBe("Edited in Git");
    const again = await cli("push", "repo");
    expect(again.stdout).toContain("unchanged support-triage v2");
  });

  it("pushes on top of versions an earlier push saved, as CI does without committing the base file", async () => {
    const baseFile = path.join(work, "repo/.waddle-base.json");
    const pushed = readFileSync(baseFile, "utf8");
    writeFileSync(baseFile, pushed.replace(/("support-triage": \{[^}]*"version": )2/, "$11"));
    expect(readFileSync(baseFile, "utf8")).not.toBe(pushed);
    editSpec((spec) => void (spec.description = "Edited in Git, pushed by CI"));
    const result = await cli("push", "repo");
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("saved support-triage v3 (was v2)");
  });

  it("refuses a spec whose base the server moved past, naming the agent, and saves nothing", async () => {
    const latest = await getLatest();
    await client.request("PUT", "/api/agents/support-triage", {
      spec: { ...latest.spec, description: "Edited in the designer" },
      baseVersion: latest.version,
    });
    editSpec((spec) => void (spec.description = "Edited in Git again"));
    const result = await cli("push", "repo");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("support-triage (pulled at v3; saved since, not by push: v4)");
    const after = await getLatest();
    expect(after.version).toBe(4);
    expect(after.spec.description).toBe("Edited in the designer");
  });

  it("tests and releases through the gate: blocked by a failing case, released once fixed", async () => {
    expect((await cli("pull", "repo")).code).toBe(0);
    editSpec((spec) => {
      for (const tool of spec.tools) if (tool.name === "retrieve_docs") tool.requiresApproval = true;
    });
    expect((await cli("push", "repo")).stdout).toContain("saved support-triage v5");
    const junit = path.join(work, "report.xml");
    const tested = await cli("test", "support-triage", "--junit", junit);
    expect(tested.code).toBe(1);
    expect(readFileSync(junit, "utf8")).toContain("<testsuites");

    const blocked = await cli("release", "support-triage", "--channel", "production", "--notes", "first");
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("release refused");
    expect(blocked.stdout).toContain(
      "✗ My invoice shows a duplicate charge for March (support-triage-1) failed",
    );
    expect(blocked.stdout).toContain("status: The run paused for approval before calling retrieve_docs");

    editSpec((spec) => {
      for (const tool of spec.tools) if (tool.name === "retrieve_docs") delete tool.requiresApproval;
    });
    expect((await cli("push", "repo")).stdout).toContain("saved support-triage v6");
    const released = await cli("release", "support-triage", "--channel", "production", "--notes", "fixed");
    expect(released.stderr).toBe("");
    expect(released.stdout).toContain("released support-triage v6 to production (new channel)");
    expect(released.code).toBe(0);
    const channels = ChannelsResponse.parse(
      (await client.request("GET", "/api/agents/support-triage/channels")).json,
    );
    expect(channels.channels).toMatchObject([{ name: "production", version: 6, notes: "fixed" }]);

    expect((await cli("pull", "repo")).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(work, "repo/channels.json"), "utf8"))).toEqual({
      "support-triage": { production: 6 },
    });
  });

  it("exits 2 on bad input", async () => {
    expect((await cli("release", "support-triage", "--channel", "Not A Channel")).code).toBe(2);
    expect((await cli("release", "support-triage")).code).toBe(2);
    expect((await cli("release", "support-triage", "--channel", "staging", "--version", "99")).code).toBe(2);
    expect((await cli("release", "no-such-agent", "--channel", "staging")).code).toBe(2);
    expect((await cli("push", "no-such-folder")).code).toBe(2);
  });
});
