import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { defaultModuleImporter, importWithTsx, loadToolModules } from "./load-tool-modules.js";
import { ToolRegistry } from "./tool-registry.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const examplesDir = path.resolve(serverDir, "../apps/examples/tools");
// Inside the repository, so that the tool files resolve `zod` from its node_modules.
const userDir = mkdtempSync(path.join(serverDir, ".tmp-tools-"));
afterAll(() => rmSync(userDir, { recursive: true, force: true }));

describe("loadToolModules", () => {
  it("registers the example tools with JSON Schemas", async () => {
    const loaded = await loadToolModules({
      dir: examplesDir,
      label: "examples",
      importModule: (file) => import(file),
    });
    expect(loaded.errors).toEqual([]);
    const registry = new ToolRegistry();
    for (const tool of loaded.tools) registry.register(tool.definition, tool.source);
    const names = registry.list().map((tool) => tool.name);
    expect(names).toEqual(["calculator", "clock_now", "date_add", "date_diff", "json_extract", "text_stats"]);
    const calculator = registry.getInfo("calculator")!;
    expect(calculator.source).toBe("examples/calculator.ts");
    expect(calculator.argsSchema).toMatchObject({
      type: "object",
      properties: { expression: { type: "string", maxLength: 1000 } },
      required: ["expression"],
    });
    expect(calculator.outSchema).toMatchObject({ properties: { value: { type: "number" } } });
    expect(registry.getInfo("text_stats")?.argsSchema).not.toHaveProperty("required", ["text", "top"]);
  });

  it("loads TypeScript and plain JavaScript from a user folder, reporting broken files", async () => {
    writeFileSync(
      path.join(userDir, "shout.ts"),
      `import { z } from "zod";
       const args = z.object({ text: z.string() });
       export default {
         name: "shout", desc: "Upper-cases text", args, out: z.object({ text: z.string() }),
         run: ({ text }: { text: string }) => ({ text: text.toUpperCase() }),
       };`,
    );
    writeFileSync(
      path.join(userDir, "count.mjs"),
      `import { z } from "zod";
       export const count = { name: "count", desc: "Length", args: z.object({ text: z.string() }),
         out: z.object({ n: z.number() }), run: ({ text }) => ({ n: text.length }) };
       export const notATool = { name: "x" };`,
    );
    writeFileSync(path.join(userDir, "broken.ts"), "export const = ;");
    writeFileSync(path.join(userDir, "ignored.test.ts"), "throw new Error('never imported')");
    writeFileSync(path.join(userDir, "notes.md"), "# not a module");
    const loaded = await loadToolModules({
      dir: userDir,
      label: "user",
      importModule: defaultModuleImporter,
    });
    expect(loaded.tools.map((tool) => [tool.definition.name, tool.source])).toEqual([
      ["count", "user/count.mjs"],
      ["shout", "user/shout.ts"],
    ]);
    expect(loaded.errors.map((error) => error.file)).toEqual(["user/broken.ts"]);
    const shout = loaded.tools[1]!.definition;
    expect(await shout.run({ text: "hi" }, {} as never)).toEqual({ text: "HI" });
    const registry = new ToolRegistry();
    registry.register(shout, "user/shout.ts");
    expect(registry.getInfo("shout")?.argsSchema).toMatchObject({ properties: { text: { type: "string" } } });
  });

  it("imports TypeScript through one tsx namespace, so that tool files share their dependencies", async () => {
    const tsxDir = mkdtempSync(path.join(serverDir, ".tmp-tsx-tools-"));
    try {
      for (const name of ["first", "second"]) {
        writeFileSync(
          path.join(tsxDir, `${name}.ts`),
          `import { z } from "zod";
           export const zod: typeof z = z;
           export default {
             name: "${name}", desc: "A tool", args: z.object({}), out: z.object({ ok: z.boolean() }),
             run: (): { ok: boolean } => ({ ok: true }),
           };`,
        );
      }
      writeFileSync(path.join(tsxDir, "broken.ts"), "export const = ;");
      const first = (await importWithTsx(path.join(tsxDir, "first.ts"))) as { zod: unknown };
      const second = (await importWithTsx(path.join(tsxDir, "second.ts"))) as { zod: unknown };
      // tsx's tsImport gave every file a namespace of its own, each with another copy of zod.
      expect(first.zod).toBe(second.zod);
      const loaded = await loadToolModules({ dir: tsxDir, label: "user", importModule: importWithTsx });
      expect(loaded.tools.map((tool) => tool.definition.name)).toEqual(["first", "second"]);
      expect(loaded.errors.map((error) => error.file)).toEqual(["user/broken.ts"]);
    } finally {
      rmSync(tsxDir, { recursive: true, force: true });
    }
  });

  it("loads module guard checks (defineGuardCheck) beside the tools of the same files", async () => {
    const guardDir = mkdtempSync(path.join(serverDir, ".tmp-guard-tools-"));
    try {
      writeFileSync(
        path.join(guardDir, "house-rules.ts"),
        `import { z } from "zod";
         import { defineGuardCheck } from "@waddle/planner";
         export const noCompetitors = defineGuardCheck({
           name: "no-competitors",
           description: "Fails a text that names a competitor",
           check: (value: unknown) => ({ pass: !String(value).includes("Acme") }),
         });
         export const lookup = {
           name: "lookup", desc: "Looks up", args: z.object({}), out: z.object({}), run: () => ({}),
         };
         export const looksLikeACheck = { kind: "guard_check", name: "no-function" };`,
      );
      const loaded = await loadToolModules({
        dir: guardDir,
        label: "user",
        importModule: defaultModuleImporter,
      });
      expect(loaded.errors).toEqual([]);
      expect(loaded.tools.map((tool) => tool.definition.name)).toEqual(["lookup"]);
      expect(loaded.guardChecks.map((check) => [check.definition.name, check.source])).toEqual([
        ["no-competitors", "user/house-rules.ts"],
      ]);
      const registry = new ToolRegistry();
      for (const tool of loaded.tools) registry.register(tool.definition, tool.source, tool.file);
      for (const check of loaded.guardChecks)
        registry.registerGuardCheck(check.definition, check.source, check.file);
      const found = registry.getGuardChecks().get("no-competitors")!;
      const context = { stage: "output" as const, signal: new AbortController().signal };
      expect(await found.check("Try Acme instead", context)).toEqual({ pass: false });
      expect(registry.getGuardCheck("no-competitors")?.file).toBe(path.join(guardDir, "house-rules.ts"));
      // Checks are not tools: the catalog the designer reads lists tools only.
      expect(registry.list().map((tool) => tool.name)).toEqual(["lookup"]);
    } finally {
      rmSync(guardDir, { recursive: true, force: true });
    }
  });
});
