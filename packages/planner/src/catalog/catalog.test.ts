import type { ToolSpecInput } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog, Catalog, fromDefinition } from "./catalog.js";
import { CatalogError } from "../errors/catalog-error.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import { defineTool, type ToolRunContext } from "./tool.js";

const search = defineTool({
  name: "search",
  desc: "Search the docs",
  args: z.object({ topic: z.string().describe("What to look for"), k: z.number().int().default(5) }),
  out: z.object({ docs: z.array(z.string()) }),
  sideEffects: "read",
  tags: ["kb"],
  costUsd: 0.01,
  extra: { auto_seq: true },
  run: ({ topic, k }) => ({ docs: Array.from({ length: k }, (_, index) => `${topic}-${index}`) }),
});

function context(overrides: Partial<ToolRunContext> = {}): ToolRunContext {
  return {
    signal: new AbortController().signal,
    toolContext: {},
    runId: "run-1",
    step: 0,
    callId: "c1",
    attempt: 1,
    query: "the query",
    observations: { last: { prev: 1 }, byTool: { search: { docs: ["a"] } } },
    reportUsage: () => undefined,
    pause: () => {
      throw new Error("pause");
    },
    ...overrides,
  };
}

function catalogError(run: () => unknown): CatalogError {
  try {
    run();
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  throw new Error("expected a CatalogError");
}

const mockSpec = (overrides: Partial<ToolSpecInput> = {}): ToolSpecInput => ({
  name: "echo",
  argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  outSchema: { type: "object", properties: { said: { type: "string" } }, required: ["said"] },
  impl: { kind: "mock", output: { said: "{{args.text}} / {{query}} / {{call}}" } },
  ...overrides,
});

describe("buildCatalog with module tools", () => {
  it("builds records with metadata, compact schemas and compiled zod", async () => {
    const catalog = buildCatalog({ tools: [search] });
    const tool = catalog.get("search");
    expect(tool).toMatchObject({
      name: "search",
      desc: "Search the docs",
      sideEffects: "read",
      tags: ["kb"],
      costUsd: 0.01,
      autoSeq: true,
      autoSeqExecute: false,
      requiresApproval: false,
      origin: "module",
    });
    expect(tool?.argsSchema).toEqual({
      type: "object",
      properties: {
        topic: { type: "string", description: "What to look for" },
        k: { type: "integer", default: 5 },
      },
      required: ["topic"],
    });
    expect(tool?.outSchema).not.toHaveProperty("$schema");
    expect(tool?.args.parse({ topic: "x" })).toEqual({ topic: "x", k: 5 });
    expect(await tool?.run({ topic: "t", k: 2 }, context())).toEqual({ docs: ["t-0", "t-1"] });
    expect(catalog.names).toEqual(["search"]);
  });

  it("keeps zod's noise out of the prompt schemas: safe-integer bounds, format patterns, string keys", () => {
    const tool = fromDefinition(
      defineTool({
        name: "notify",
        desc: "Notify a user",
        args: z.object({
          email: z.email(),
          when: z.iso.datetime(),
          attempts: z.int().min(1),
          labels: z.record(z.string(), z.string()),
          code: z.string().regex(/^N-\d+$/),
        }),
        out: z.object({ sent: z.int() }),
        run: () => ({ sent: 1 }),
      }),
    );
    expect(tool.argsSchema).toEqual({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        when: { type: "string", format: "date-time" },
        attempts: { type: "integer", minimum: 1 },
        labels: { type: "object", additionalProperties: { type: "string" } },
        code: { type: "string", pattern: "^N-\\d+$" },
      },
      required: ["email", "when", "attempts", "labels", "code"],
    });
    expect(tool.outSchema).toEqual({
      type: "object",
      properties: { sent: { type: "integer" } },
      required: ["sent"],
    });
  });

  it("falls back to the args description, then to '<name> (no description)'", () => {
    const described = fromDefinition({ ...search, desc: "", args: z.object({}).describe("From the schema") });
    expect(described.desc).toBe("From the schema");
    expect(fromDefinition({ ...search, desc: "  " }).desc).toBe("search (no description)");
  });

  it("refuses duplicates and opcode names", () => {
    expect(catalogError(() => buildCatalog({ tools: [search, search] })).code).toBe("duplicate_tool");
    const opcode = catalogError(() => fromDefinition({ ...search, name: "parallel" }));
    expect(opcode.code).toBe("reserved_tool_name");
    expect(opcode.message).toMatch(/opcode/);
    expect(catalogError(() => buildCatalog({ specTools: [mockSpec({ name: "task" })] })).code).toBe(
      "reserved_tool_name",
    );
  });
});

describe("buildCatalog with spec tools", () => {
  it("builds the example agent's mock tools with zod from JSON Schema", async () => {
    const spec = loadExampleAgent("support-triage");
    const catalog = buildCatalog({ specTools: spec.tools, sleep: async () => {} });
    expect(catalog.names).toEqual(["triage", "retrieve_docs", "summarize"]);
    const retrieve = catalog.get("retrieve_docs");
    expect(retrieve?.implKind).toBe("mock");
    expect(retrieve?.args.safeParse({ topic: "billing", query: "q" })).toMatchObject({
      success: true,
      data: { topic: "billing", query: "q", k: 3 },
    });
    expect(retrieve?.args.safeParse({ topic: "weather", query: "q" }).success).toBe(false);
    const triage = catalog.get("triage");
    const output = await triage?.run({ text: "double charge" }, context());
    expect(output).toEqual({ topic: "billing", urgency: "normal", query: "double charge" });
    expect(triage?.out.safeParse(output).success).toBe(true);
  });

  it("renders mock templates over args, query, last, steps and call", async () => {
    const catalog = buildCatalog({
      specTools: [
        mockSpec({
          impl: {
            kind: "mock",
            output: { said: "{{args.text}}|{{query}}|{{last.prev}}|{{steps.search.docs[0]}}|{{call}}" },
          },
        }),
      ],
    });
    const run = catalog.get("echo")?.run;
    expect(await run?.({ text: "hi" }, context())).toEqual({ said: "hi|the query|1|a|1" });
    expect(await run?.({ text: "hi" }, context())).toEqual({ said: "hi|the query|1|a|2" });
    expect(await run?.({ text: "hi" }, context({ runId: "run-2" }))).toEqual({ said: "hi|the query|1|a|1" });
  });

  it("fails the first calls of each run, then at failRate with the injected random", async () => {
    const catalog = buildCatalog({
      specTools: [
        mockSpec({
          impl: { kind: "mock", output: { said: "ok" }, failFirst: 2, failMessage: "flaky upstream" },
        }),
        mockSpec({ name: "coin", impl: { kind: "mock", output: { said: "ok" }, failRate: 0.5 } }),
      ],
      random: (() => {
        const draws = [0.4, 0.6];
        return () => draws.shift() ?? 0.9;
      })(),
    });
    const echo = catalog.get("echo");
    await expect(echo?.run({ text: "a" }, context())).rejects.toThrow("flaky upstream");
    await expect(echo?.run({ text: "a" }, context())).rejects.toThrow("flaky upstream");
    await expect(echo?.run({ text: "a" }, context())).resolves.toEqual({ said: "ok" });
    const coin = catalog.get("coin");
    await expect(coin?.run({}, context())).rejects.toThrow(/mock fault/);
    await expect(coin?.run({}, context())).resolves.toEqual({ said: "ok" });
  });

  it("waits latencyMs through the injected sleep and honours the signal", async () => {
    const waits: number[] = [];
    const catalog = buildCatalog({
      specTools: [mockSpec({ impl: { kind: "mock", output: { said: "late" }, latencyMs: 250 } })],
      sleep: async (ms, signal) => {
        waits.push(ms);
        signal?.throwIfAborted();
      },
    });
    await catalog.get("echo")?.run({ text: "x" }, context());
    expect(waits).toEqual([250]);
    const controller = new AbortController();
    controller.abort(new Error("cancelled by user"));
    await expect(
      catalog.get("echo")?.run({ text: "x" }, context({ signal: controller.signal })),
    ).rejects.toThrow("cancelled by user");
  });

  it("resolves module impls through moduleTools by ref, with the module's zod", async () => {
    const catalog = buildCatalog({
      specTools: [mockSpec({ name: "kb_search", desc: "", impl: { kind: "module", ref: "search" } })],
      moduleTools: [search],
    });
    const tool = catalog.get("kb_search");
    expect(tool?.desc).toBe("Search the docs");
    expect(tool?.args.parse({ topic: "x" })).toEqual({ topic: "x", k: 5 });
    expect(await tool?.run({ topic: "z", k: 1 }, context())).toEqual({ docs: ["z-0"] });
  });

  it("resolves other kinds through resolveImpl and refuses what nobody runs", async () => {
    const http = mockSpec({ name: "fetcher", impl: { kind: "http", url: "https://example.com" } });
    const catalog = buildCatalog({
      specTools: [http],
      resolveImpl: () => async () => ({ said: "from http" }),
    });
    expect(await catalog.get("fetcher")?.run({ text: "x" }, context())).toEqual({ said: "from http" });
    const missing = catalogError(() => buildCatalog({ specTools: [http] }));
    expect(missing.code).toBe("unresolved_impl");
    expect(missing.message).toMatch(/fetcher.*http.*resolveImpl/);
    const module = catalogError(() =>
      buildCatalog({ specTools: [mockSpec({ impl: { kind: "module", ref: "nope" } })] }),
    );
    expect(module.message).toMatch(/module "nope".*moduleTools/);
  });

  it("reads auto-seq flags from the spec or from extra, and keeps desc fallbacks", () => {
    const catalog = buildCatalog({
      specTools: [
        mockSpec({ name: "a", desc: "", autoSeq: true }),
        mockSpec({ name: "b", extra: { auto_seq: true, auto_seq_execute: true } }),
      ],
    });
    expect(catalog.get("a")).toMatchObject({
      desc: "a (no description)",
      autoSeq: true,
      autoSeqExecute: false,
    });
    expect(catalog.get("b")).toMatchObject({ autoSeq: true, autoSeqExecute: true });
  });

  it("reports a JSON Schema zod cannot read", () => {
    const error = catalogError(() =>
      buildCatalog({
        specTools: [mockSpec({ argsSchema: { type: "object", properties: { a: { $ref: "#/nowhere" } } } })],
      }),
    );
    expect(error.code).toBe("invalid_tool_schema");
    expect(error.message).toMatch(/echo/);
  });

  it("extends with built-in tools", () => {
    const catalog = new Catalog([]).extend([fromDefinition(search)]);
    expect(catalog.has("search")).toBe(true);
    expect(catalog.size).toBe(1);
  });
});
