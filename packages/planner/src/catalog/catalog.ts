import {
  RESERVED_TOOL_NAMES,
  TOOL_NAME_PATTERN,
  ToolSpec,
  type JsonSchema,
  type RetryPolicy,
  type SideEffect,
  type ToolImplKind,
  type ToolSpecInput,
} from "@waddle/protocol";
import { z } from "zod";
import type { Sleep } from "../util/abortable-sleep.js";
import { CatalogError } from "../errors/catalog-error.js";
import { compactJsonSchema } from "./compact-json-schema.js";
import { mergeModuleSafety } from "./merge-module-safety.js";
import { createMockToolRunner } from "./mock-tool-runner.js";
import type { ImplResolver, ToolDefinition, ToolRunContext, ToolRunner } from "./tool.js";

/** One tool as the planner uses it: metadata, compact schemas for the prompt, compiled zod, a runner. */
export interface CatalogTool {
  readonly name: string;
  readonly desc: string;
  readonly sideEffects: SideEffect;
  readonly tags: readonly string[];
  readonly authScopes: readonly string[];
  readonly costHint?: string;
  readonly costUsd?: number;
  readonly latencyHintMs?: number;
  readonly safetyNotes?: string;
  readonly extra: Readonly<Record<string, unknown>>;
  /** Compact JSON Schemas for the prompt (args as the LLM writes them, out as the tool returns it). */
  readonly argsSchema: JsonSchema;
  readonly outSchema: JsonSchema;
  /** Compiled once; the planner validates args and results with these. */
  readonly args: z.ZodType;
  readonly out: z.ZodType;
  readonly requiresApproval: boolean;
  readonly autoSeq: boolean;
  readonly autoSeqExecute: boolean;
  readonly retry?: Partial<RetryPolicy>;
  readonly timeoutMs?: number;
  readonly run: ToolRunner;
  /**
   * The tool's own `run` when it is TypeScript (`defineTool`, module tools): its result may be a plain
   * value, which means the call has already finished, so the executor needs no timeout or cancellation
   * race for it. `run` wraps the same function in a promise for everyone else.
   */
  readonly runDirect?: (args: Record<string, unknown>, context: ToolRunContext) => unknown;
  /** Where the record came from: a `defineTool` module or an AgentSpec tool (with its impl kind). */
  readonly origin: "module" | "spec";
  readonly implKind?: ToolImplKind;
}

/** The tools a planner may call, by name, in catalog order. */
export class Catalog {
  readonly tools: readonly CatalogTool[];
  readonly names: readonly string[];
  private readonly byName: ReadonlyMap<string, CatalogTool>;

  constructor(tools: readonly CatalogTool[]) {
    const byName = new Map<string, CatalogTool>();
    for (const tool of tools) {
      if (byName.has(tool.name)) {
        throw new CatalogError("duplicate_tool", `Two tools are named "${tool.name}": rename one of them.`, {
          details: { tool: tool.name },
        });
      }
      assertToolName(tool.name);
      byName.set(tool.name, tool);
    }
    this.tools = Object.freeze([...tools]);
    this.names = Object.freeze(tools.map((tool) => tool.name));
    this.byName = byName;
  }

  get(name: string): CatalogTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get size(): number {
    return this.tools.length;
  }

  /** A new catalog with more tools (built-ins such as `write_todos`) appended. */
  extend(tools: readonly CatalogTool[]): Catalog {
    return tools.length === 0 ? this : new Catalog([...this.tools, ...tools]);
  }
}

export interface BuildCatalogOptions {
  /** Tools written in TypeScript with `defineTool`. */
  tools?: readonly ToolDefinition[];
  /** AgentSpec tools; `mock` runs here, `module` through `moduleTools`, other kinds through `resolveImpl`. */
  specTools?: readonly (ToolSpec | ToolSpecInput)[];
  /** Module tools by `impl.ref` (an array is keyed by tool name). */
  moduleTools?: ReadonlyMap<string, ToolDefinition> | readonly ToolDefinition[];
  resolveImpl?: ImplResolver;
  /** For mock tools: `failRate` draws and `latencyMs` waits. */
  random?: () => number;
  sleep?: Sleep;
}

/**
 * Builds the catalog from module tools and AgentSpec tools: desc fallbacks, compact JSON Schemas for the
 * prompt, zod compiled once (spec tools through zod's own `z.fromJSONSchema`), and a runner for each.
 * Throws `CatalogError` for a clash with an opcode, a duplicate, a bad schema or an impl nobody runs.
 */
export function buildCatalog(options: BuildCatalogOptions = {}): Catalog {
  const records: CatalogTool[] = (options.tools ?? []).map((tool) => fromDefinition(tool));
  const modules = toModuleMap(options.moduleTools);
  for (const input of options.specTools ?? [])
    records.push(fromSpec(parseSpec(input), { ...options, modules }));
  return new Catalog(records);
}

/** A catalog record from a `defineTool` definition. */
export function fromDefinition(tool: ToolDefinition): CatalogTool {
  assertToolName(tool.name);
  return {
    name: tool.name,
    desc: describe(tool.name, tool.desc, tool.args),
    sideEffects: tool.sideEffects ?? "pure",
    tags: tool.tags ?? [],
    authScopes: tool.authScopes ?? [],
    ...optional({
      costHint: tool.costHint,
      costUsd: tool.costUsd,
      latencyHintMs: tool.latencyHintMs,
      safetyNotes: tool.safetyNotes,
      retry: tool.retry,
      timeoutMs: tool.timeoutMs,
    }),
    extra: tool.extra ?? {},
    argsSchema: toPromptSchema(tool.name, tool.args, "input"),
    outSchema: toPromptSchema(tool.name, tool.out, "output"),
    args: tool.args,
    out: tool.out,
    requiresApproval: tool.requiresApproval ?? false,
    autoSeq: tool.autoSeq ?? tool.extra?.auto_seq === true,
    autoSeqExecute: tool.autoSeqExecute ?? tool.extra?.auto_seq_execute === true,
    // No async wrapper: a returned promise passes through as is (the executor catches synchronous throws).
    run: (args, context) => Promise.resolve(tool.run(args as never, context)),
    runDirect: (args, context) => tool.run(args as never, context),
    origin: "module",
  };
}

function fromSpec(
  spec: ToolSpec,
  options: BuildCatalogOptions & { modules: ReadonlyMap<string, ToolDefinition> },
): CatalogTool {
  assertToolName(spec.name);
  const moduleTool = spec.impl.kind === "module" ? options.modules.get(spec.impl.ref) : undefined;
  const run = resolveRunner(spec, moduleTool, options);
  const args = moduleTool?.args ?? fromJsonSchema(spec.name, spec.argsSchema, "argsSchema");
  const out = moduleTool?.out ?? fromJsonSchema(spec.name, spec.outSchema, "outSchema");
  // The spec may tighten what a module tool's author declared, never weaken it (docs/catalog.md).
  const safety = moduleTool === undefined ? spec : mergeModuleSafety(spec, moduleTool);
  return {
    name: spec.name,
    desc: describe(spec.name, spec.desc || moduleTool?.desc || "", args),
    sideEffects: safety.sideEffects,
    tags: spec.tags,
    authScopes: safety.authScopes,
    ...optional({
      costHint: spec.costHint,
      costUsd: safety.costUsd,
      latencyHintMs: spec.latencyHintMs,
      safetyNotes: safety.safetyNotes,
      retry: safety.retry,
      timeoutMs: safety.timeoutMs,
    }),
    extra: spec.extra,
    argsSchema: moduleTool
      ? toPromptSchema(spec.name, moduleTool.args, "input")
      : compactJsonSchema(spec.argsSchema),
    outSchema: moduleTool
      ? toPromptSchema(spec.name, moduleTool.out, "output")
      : compactJsonSchema(spec.outSchema),
    args,
    out,
    requiresApproval: safety.requiresApproval,
    autoSeq: spec.autoSeq || spec.extra.auto_seq === true,
    autoSeqExecute: spec.autoSeqExecute || spec.extra.auto_seq_execute === true,
    run,
    ...(moduleTool === undefined
      ? {}
      : {
          runDirect: (input: Record<string, unknown>, context: ToolRunContext) =>
            moduleTool.run(input as never, context),
        }),
    origin: "spec",
    implKind: spec.impl.kind,
  };
}

function resolveRunner(
  spec: ToolSpec,
  moduleTool: ToolDefinition | undefined,
  options: BuildCatalogOptions,
): ToolRunner {
  const impl = spec.impl;
  if (impl.kind === "mock") {
    return createMockToolRunner(impl, {
      toolName: spec.name,
      ...optional({ random: options.random, sleep: options.sleep }),
    });
  }
  if (impl.kind === "module") {
    if (moduleTool !== undefined)
      return (args, context) => Promise.resolve(moduleTool.run(args as never, context));
    const viaResolver = options.resolveImpl?.(spec);
    if (viaResolver !== undefined) return viaResolver;
    throw new CatalogError(
      "unresolved_impl",
      `Tool "${spec.name}" uses module "${impl.ref}", which is not registered: pass it in moduleTools.`,
      { details: { tool: spec.name, kind: impl.kind, ref: impl.ref } },
    );
  }
  const runner = options.resolveImpl?.(spec);
  if (runner !== undefined) return runner;
  throw new CatalogError(
    "unresolved_impl",
    `Tool "${spec.name}" has impl kind "${impl.kind}", which the planner does not run itself: ` +
      `pass resolveImpl to supply its runner (the server runs http, llm and agent tools).`,
    { details: { tool: spec.name, kind: impl.kind } },
  );
}

function parseSpec(input: ToolSpec | ToolSpecInput): ToolSpec {
  const parsed = ToolSpec.safeParse(input);
  if (parsed.success) return parsed.data;
  const name =
    typeof (input as { name?: unknown }).name === "string" ? (input as { name: string }).name : "?";
  const issue = parsed.error.issues[0];
  throw new CatalogError(
    "invalid_tool_spec",
    `Tool "${name}" is not a valid ToolSpec: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim(),
    {
      details: {
        tool: name,
        issues: parsed.error.issues.map((item) => ({ path: item.path, message: item.message })),
      },
    },
  );
}

function fromJsonSchema(toolName: string, schema: JsonSchema, field: string): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new CatalogError(
      "invalid_tool_schema",
      `Tool "${toolName}": ${field} is not a JSON Schema zod can read (${(error as Error).message}).`,
      { details: { tool: toolName, field }, cause: error },
    );
  }
}

function toPromptSchema(toolName: string, schema: z.ZodType, io: "input" | "output"): JsonSchema {
  try {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    return compactJsonSchema(json, { dropFormatPatterns: true });
  } catch (error) {
    throw new CatalogError(
      "invalid_tool_schema",
      `Tool "${toolName}": its ${io === "input" ? "args" : "out"} zod schema cannot be shown as JSON Schema (${(error as Error).message}).`,
      { details: { tool: toolName }, cause: error },
    );
  }
}

/** The desc, else the args schema's own description, else `"<name> (no description)"`. */
function describe(name: string, desc: string, args: z.ZodType): string {
  const text = desc.trim();
  if (text.length > 0) return text;
  const fromSchema = args.description?.trim();
  return fromSchema !== undefined && fromSchema.length > 0 ? fromSchema : `${name} (no description)`;
}

function assertToolName(name: string): void {
  if (RESERVED_TOOL_NAMES.has(name)) {
    throw new CatalogError(
      "reserved_tool_name",
      `"${name}" is a planner opcode and cannot name a tool: rename it.`,
      {
        details: { tool: name },
      },
    );
  }
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new CatalogError(
      "invalid_tool_name",
      `"${name}" is not a valid tool name: start with a letter or "_" and use letters, digits and "_".`,
      { details: { tool: name } },
    );
  }
}

function toModuleMap(
  input: ReadonlyMap<string, ToolDefinition> | readonly ToolDefinition[] | undefined,
): ReadonlyMap<string, ToolDefinition> {
  if (input === undefined) return new Map();
  if (input instanceof Map) return input;
  return new Map((input as readonly ToolDefinition[]).map((tool) => [tool.name, tool]));
}

/** Drops undefined values so that optional fields stay absent rather than `undefined`. */
function optional<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(values) as (keyof T)[]) if (values[key] !== undefined) out[key] = values[key];
  return out;
}
