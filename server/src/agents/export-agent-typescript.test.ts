import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { typecheckFiles } from "../testing/typecheck-files.js";
import { exportAgentTypeScript } from "./export-agent-typescript.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Inside the repository, so that @waddle/* and zod resolve from its node_modules.
const dir = mkdtempSync(path.join(serverDir, ".tmp-export-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const examples = ["support-triage", "sharded-research", "email-approval"].map((id) =>
  AgentSpec.parse(
    JSON.parse(readFileSync(path.join(serverDir, `../apps/examples/agents/${id}.json`), "utf8")),
  ),
);
const withEveryKind = AgentSpec.parse({
  version: 1,
  id: "every-kind",
  name: "Every kind",
  tools: [
    { name: "calc", impl: { kind: "module", ref: "calculator" } },
    {
      name: "fetch_page",
      impl: {
        kind: "http",
        url: "https://api.example.com/{id}",
        headers: { authorization: { secret: "API" } },
      },
    },
    { name: "classify", impl: { kind: "llm", prompt: "Classify {{args.text}}" } },
    { name: "delegate", impl: { kind: "agent", agentId: "support-triage" } },
  ],
});

/** Text that would run as code if the export put it raw into a comment or into code. */
const hostile = AgentSpec.parse({
  version: 1,
  id: "hostile",
  name: "Evil\nconsole.log('INJECTED-NAME')//",
  description: "*/ console.log('INJECTED-DESC'); /*\u2028console.log('INJECTED-DESC-LS')",
  tools: [
    {
      name: "calc",
      desc: "*/ console.log('INJECTED-TOOL-DESC'); /*",
      impl: { kind: "module", ref: "calc */ console.log('INJECTED-REF'); /*" },
    },
    { name: "other", impl: { kind: "module", ref: "x\u2028console.log('INJECTED-REF-LS')\r\n//" } },
    { name: "ask", impl: { kind: "llm", prompt: "\u2029console.log('INJECTED-PROMPT')" } },
    {
      name: "keyed",
      argsSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as object,
      impl: { kind: "mock" },
    },
  ],
});

/** Identifiers of the code itself: comments and string literals are skipped by the scanner. */
function codeIdentifiers(source: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2023, true, ts.LanguageVariant.Standard, source);
  const names: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.Identifier) names.push(scanner.getTokenText());
  }
  return names;
}

const typecheck = typecheckFiles;

describe("exportAgentTypeScript", () => {
  it("writes TypeScript that typechecks for the examples and every tool kind", () => {
    const files = [...examples, withEveryKind].map((spec) => {
      const file = path.join(dir, `${spec.id}.ts`);
      writeFileSync(file, exportAgentTypeScript(spec));
      return file;
    });
    expect(typecheck(files)).toEqual([]);
    const source = readFileSync(path.join(dir, "every-kind.ts"), "utf8");
    expect(source).toContain('export const httpAllow: string[] = ["api.example.com"];');
    expect(source).toContain('export const secretNames: string[] = ["API"];');
    expect(source).toContain("Not found on the exporting server, pass them in `moduleTools`: calculator.");
    expect(source).not.toMatch(/sk-/);
  }, 60_000);

  it("keeps hostile names, descriptions, refs and prompts out of the code: it typechecks and runs nothing", async () => {
    const source = exportAgentTypeScript(hostile);
    const file = path.join(dir, "hostile.ts");
    writeFileSync(file, source);
    expect(typecheck([file])).toEqual([]);
    expect(codeIdentifiers(source)).not.toContain("console");
    expect(source).toContain("// Evil console.log('INJECTED-NAME')// — exported from Waddle.");
    expect(source).toContain("calc * / console.log('INJECTED-REF'); /*");
    const exported = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { spec: AgentSpec };
    expect(JSON.stringify(exported.spec)).toBe(JSON.stringify(hostile));
    expect(Object.keys(exported.spec.tools[3]!.argsSchema.properties as object)).toEqual(["__proto__"]);
  }, 60_000);

  it("builds the same planner: the exported module answers like the spec does", async () => {
    const spec = examples[0]!;
    const file = path.join(dir, "run-support-triage.ts");
    writeFileSync(file, exportAgentTypeScript(spec));
    const exported = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      spec: AgentSpec;
      run(
        query: string,
        options: { env: NodeJS.ProcessEnv; onEvent: (event: RunEvent) => void },
      ): Promise<{ kind: string; payload?: { answer: string } }>;
    };
    expect(exported.spec).toEqual(spec);
    const events: RunEvent[] = [];
    const outcome = await exported.run("My invoice shows a duplicate charge", {
      env: {},
      onEvent: (event) => events.push(event),
    });
    expect(outcome.kind).toBe("finish");
    expect(outcome.payload?.answer).toContain("Duplicate billing charges are reversed");
    expect(
      events
        .filter((event) => event.type === "tool_end")
        .map((event) => (event.data as { tool: string }).tool),
    ).toEqual(["triage", "retrieve_docs", "summarize"]);
  }, 30_000);
});
