import { TOOL_NAME_PATTERN, type ToolInfo } from "@waddle/protocol";
import type { GuardCheckDefinition, ToolDefinition } from "@waddle/planner";
import { z } from "zod";

export interface RegisteredTool {
  definition: ToolDefinition;
  /** Where it came from, e.g. `examples/calculator.ts`. */
  source: string;
  /** The module file's absolute path, when it was loaded from a file (the ts-project export copies it). */
  file?: string;
}

export interface RegisteredGuardCheck {
  definition: GuardCheckDefinition;
  /** Where it came from, e.g. `user/no-competitors.ts`. */
  source: string;
  /** The module file's absolute path, when it was loaded from a file (exports copy it). */
  file?: string;
}

/** True for a value shaped like what `defineTool` returns (a name, zod args and out, `run`). */
export function isToolDefinition(value: unknown): value is ToolDefinition {
  if (value === null || typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  const isSchema = (schema: unknown) =>
    schema !== null &&
    typeof schema === "object" &&
    typeof (schema as { safeParse?: unknown }).safeParse === "function";
  return (
    typeof record.name === "string" &&
    typeof record.run === "function" &&
    isSchema(record.args) &&
    isSchema(record.out)
  );
}

/** A zod schema as a compact JSON Schema (no `$schema` key); whatever JSON Schema cannot say becomes `{}`. */
export function getJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  });
  return rest;
}

/** The longest module guard check name (what a guard's `{kind: "module", name}` may say). */
const MAX_GUARD_CHECK_NAME = 200;

/**
 * The module tools the server knows by name, from `apps/examples/tools` and `WADDLE_TOOLS_DIR`, and the
 * module guard checks (`defineGuardCheck`) the same files export.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly infos = new Map<string, ToolInfo>();
  private readonly guardChecks = new Map<string, RegisteredGuardCheck>();

  /** Adds a tool; a later tool with the same name replaces the earlier one (user tools override examples). */
  register(definition: ToolDefinition, source: string, file?: string): void {
    if (!TOOL_NAME_PATTERN.test(definition.name)) {
      throw new Error(
        `Tool name "${definition.name}" from ${source} is not valid: use letters, digits and "_".`,
      );
    }
    this.tools.set(definition.name, { definition, source, ...(file ? { file } : {}) });
    this.infos.delete(definition.name);
  }

  /** Adds a module guard check; a later check with the same name replaces the earlier one. */
  registerGuardCheck(definition: GuardCheckDefinition, source: string, file?: string): void {
    const { name } = definition;
    if (name.trim() === "" || name.length > MAX_GUARD_CHECK_NAME) {
      throw new Error(
        `Guard check name "${name.slice(0, 40)}" from ${source} is not valid: use 1 to ${MAX_GUARD_CHECK_NAME} characters.`,
      );
    }
    this.guardChecks.set(name, { definition, source, ...(file ? { file } : {}) });
  }

  getGuardCheck(name: string): RegisteredGuardCheck | undefined {
    return this.guardChecks.get(name);
  }

  /** Every module guard check by name (what the planner takes as `guardChecks`). */
  getGuardChecks(): ReadonlyMap<string, GuardCheckDefinition> {
    return new Map([...this.guardChecks].map(([name, check]) => [name, check.definition]));
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** Every tool's definition, keyed by name (what the planner takes as `moduleTools`). */
  getDefinitions(): Record<string, ToolDefinition> {
    return Object.fromEntries([...this.tools].map(([name, tool]) => [name, tool.definition]));
  }

  /** The catalog of registered tools with their JSON Schemas, sorted by name. */
  list(): ToolInfo[] {
    return [...this.tools.keys()].sort().map((name) => this.getInfo(name)!);
  }

  getInfo(name: string): ToolInfo | undefined {
    const cached = this.infos.get(name);
    if (cached) return cached;
    const tool = this.tools.get(name);
    if (!tool) return undefined;
    const { definition } = tool;
    const info: ToolInfo = {
      name: definition.name,
      desc: definition.desc,
      sideEffects: definition.sideEffects ?? "pure",
      tags: [...(definition.tags ?? [])],
      authScopes: [...(definition.authScopes ?? [])],
      ...(definition.costHint === undefined ? {} : { costHint: definition.costHint }),
      ...(definition.latencyHintMs === undefined ? {} : { latencyHintMs: definition.latencyHintMs }),
      ...(definition.safetyNotes === undefined ? {} : { safetyNotes: definition.safetyNotes }),
      // The designer copies it into a spec's tool, so a drawn tool asks for approval as its author wants.
      ...(definition.requiresApproval === undefined ? {} : { requiresApproval: definition.requiresApproval }),
      argsSchema: getJsonSchema(definition.args, "input"),
      outSchema: getJsonSchema(definition.out, "output"),
      extra: { ...(definition.extra ?? {}) },
      source: tool.source,
    };
    this.infos.set(name, info);
    return info;
  }
}
