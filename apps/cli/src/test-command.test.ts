import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { listExampleAgentFiles } from "@waddle/examples";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { XMLParser } from "fast-xml-parser";
import { afterAll, describe, expect, it } from "vitest";
import { EXAMPLES_DIR } from "./agent-source.js";
import { runCli } from "./main.js";
import { createTestIo } from "./testing/create-test-io.js";

const work = mkdtempSync(path.join(tmpdir(), "waddle-cli-test-"));
const servers: WaddleServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(work, { recursive: true, force: true });
});

const cli = async (...argv: string[]) => {
  const { io, stdout, stderr } = createTestIo({
    cwd: work,
    env: { WADDLE_DATA_DIR: path.join(work, "no-data") },
  });
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
};

const exampleSuites = readdirSync(path.join(EXAMPLES_DIR, "agents"))
  .filter((file) => file.endsWith(".tests.json"))
  .map((file) => file.replace(/\.tests\.json$/, ""));

/** support-triage with retrieve_docs disallowed: its recorded cases must fail. */
function writeBrokenAgent(): string {
  const spec = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, "agents/support-triage.json"), "utf8")) as {
    tools: { name: string; requiresApproval?: boolean }[];
  };
  // retrieve_docs now waits for a person, whom a test run does not have.
  for (const tool of spec.tools) if (tool.name === "retrieve_docs") tool.requiresApproval = true;
  const file = path.join(work, "support-triage.json");
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

describe("the example agents' suites", () => {
  it("ships one of 3–5 cases for every example agent", () => {
    const agents = listExampleAgentFiles(path.join(EXAMPLES_DIR, "agents"));
    expect(exampleSuites.sort()).toEqual(agents.map(({ id }) => id).sort());
    for (const id of exampleSuites) {
      const suite = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, `agents/${id}.tests.json`), "utf8")) as {
        cases: unknown[];
      };
      expect(suite.cases.length).toBeGreaterThanOrEqual(3);
      expect(suite.cases.length).toBeLessThanOrEqual(5);
    }
  });

  it.each(exampleSuites)("%s passes in-process", async (id) => {
    const result = await cli("test", id);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(new RegExp(`PASS ${id}@v1: \\d passed, 0 failed, 0 skipped`));
    expect(result.code).toBe(0);
  });
});

describe("waddle test", () => {
  it("fails a broken agent with the reason, exit 1, and writes JUnit XML a parser reads", async () => {
    const spec = writeBrokenAgent();
    const tests = path.join(EXAMPLES_DIR, "agents/support-triage.tests.json");
    const result = await cli("test", spec, "--tests", tests, "--junit", "report.xml");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "✗ My invoice shows a duplicate charge for March (support-triage-1) failed",
    );
    expect(result.stdout).toContain(
      'status: The run paused for approval before calling retrieve_docs (it requires approval), expected "finished".',
    );
    expect(result.stdout).toContain("FAIL support-triage@v1: 0 passed, 3 failed, 0 skipped");
    const xml = readFileSync(path.join(work, "report.xml"), "utf8");
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          name: string;
          testcase: { name: string; failure: { type: string; message: string }[] }[];
        };
      };
    };
    expect(parsed.testsuites).toMatchObject({ tests: "3", failures: "3" });
    const suite = parsed.testsuites.testsuite;
    expect(suite.name).toBe("support-triage@v1");
    expect(suite.testcase.map((testCase) => testCase.name)).toEqual([
      "My invoice shows a duplicate charge for March",
      "How do I reset two-factor authentication on my account?",
      "The app crashes when I upload a photo",
    ]);
    expect(suite.testcase[0]!.failure.map((failure) => failure.type)).toEqual([
      "status",
      "trajectory.exact",
      "answer.equals",
    ]);
    expect(suite.testcase[0]!.failure[0]!.message).toBe(
      'The run paused for approval before calling retrieve_docs (it requires approval), expected "finished". A test cannot answer a pause: expect status "paused" if the agent should stop there.',
    );
  });

  it("passes JUnit XML with no failures for a passing suite, and --grep picks cases", async () => {
    const result = await cli("test", "support-triage", "--grep", "INVOICE", "--junit", "pass.xml");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("1 passed, 0 failed");
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      readFileSync(path.join(work, "pass.xml"), "utf8"),
    ) as { testsuites: { tests: string; failures: string; testsuite: { testcase: { failure?: unknown } } } };
    expect(parsed.testsuites).toMatchObject({ tests: "1", failures: "0" });
    expect(parsed.testsuites.testsuite.testcase.failure).toBeUndefined();
  });

  it("exits 2 on bad input", async () => {
    writeFileSync(
      path.join(work, "bad.tests.json"),
      JSON.stringify({ cases: [{ id: "a", name: "a", query: 1 }] }),
    );
    const malformed = await cli("test", "support-triage", "--tests", "bad.tests.json");
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("$.cases[0].query");
    expect((await cli("test", "support-triage", "--grep", "nothing like this")).code).toBe(2);
    expect((await cli("test", "support-triage", "--version", "zero")).code).toBe(2);
    expect((await cli("test", "no-such-agent")).code).toBe(2);
    expect((await cli("test")).code).toBe(2);
  });

  it("runs a suite against a server, by agent id and version", async () => {
    const server = await createWaddleServer({
      port: 0,
      dataDir: mkdtempSync(path.join(work, "data-")),
      logLevel: "silent",
      designerDir: null,
      env: {},
      importModule: (file) => import(/* @vite-ignore */ file),
    });
    servers.push(server);
    const result = await cli("test", "support-triage", "--server", server.url, "--version", "1");
    expect(result.stdout).toContain("PASS support-triage@v1: 3 passed, 0 failed, 0 skipped");
    expect(result.code).toBe(0);
    const runs = await server.store.listRuns({ agentId: "support-triage", purpose: "test" });
    expect(runs).toHaveLength(3);
    const unknown = await cli("test", "no-such-agent", "--server", server.url);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("404");
  });
});
