import type { GroupJoin, ToolSpec } from "./agent-spec.js";
import {
  describeInjectSource,
  getJoinInjectFit,
  getUnsuppliedJoinArgs,
  isJoinInjectFit,
} from "./join-inject-fit.js";
import { INJECT_SOURCES, isInjectSource, type InjectSource } from "./names.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

/**
 * Checks a group's join against its join tool's args schema: every `inject` source is one of the six, and
 * the argument it fills is one the tool takes with the value's type (the tool validates its args on every
 * run, so an argument it refuses fails the join every time: an error, not a warning).
 */
export function checkGroupJoin(input: {
  join: GroupJoin;
  /** The join tool, when it exists. */
  tool: ToolSpec | undefined;
  at: Path;
  report: Report;
}): void {
  const { join, tool, at, report } = input;
  for (const [arg, source] of Object.entries(join.inject)) {
    const path: Path = [...at, "inject", arg];
    if (!isInjectSource(source)) {
      report(
        "error",
        "invalid_inject_source",
        path,
        `"${source}" is not an injection source: use one of ${INJECT_SOURCES.join(", ")}.`,
      );
      continue;
    }
    if (tool !== undefined && isObjectSchema(tool)) checkTarget({ tool, arg, source, path, report });
  }
  if (tool === undefined || !isObjectSchema(tool)) return;
  const missing = getUnsuppliedJoinArgs({
    argsSchema: tool.argsSchema,
    args: join.args,
    inject: join.inject,
  });
  if (missing.length > 0) {
    const names = missing.map((name) => `"${name}"`).join(", ");
    report(
      "warning",
      "join_arg_unsupplied",
      [...at, "inject"],
      `${tool.name} requires ${names}, which neither the join's fixed args nor its injection supply: the join fails unless the model writes ${missing.length === 1 ? "it" : "them"}. Inject a source into ${missing.length === 1 ? "it" : "them"} or add ${missing.length === 1 ? "it" : "them"} to the fixed args.`,
    );
  }
}

function checkTarget(input: {
  tool: ToolSpec;
  arg: string;
  source: InjectSource;
  path: Path;
  report: Report;
}): void {
  const { tool, arg, source, path, report } = input;
  const fit = getJoinInjectFit({ argsSchema: tool.argsSchema, arg, source });
  const instead = getFittingArgs(tool, source).filter((name) => name !== arg);
  const otherwise =
    instead.length > 0
      ? `inject ${source} into ${instead.map((name) => `"${name}"`).join(" or ")} instead`
      : `add an argument that takes ${describeInjectSource(source)} to ${tool.name}'s args schema`;
  switch (fit.fit) {
    case "declared":
      return;
    case "undeclared":
      report(
        "warning",
        "unknown_join_arg",
        path,
        `${tool.name} has no argument "${arg}": it receives ${source} but does not declare it. Declare "${arg}" in its args schema, or ${otherwise}.`,
      );
      return;
    case "refused":
      report(
        "error",
        "join_arg_refused",
        path,
        `${tool.name} does not take an argument "${arg}" (its args schema allows no other keys), so the join would fail on every run: ${otherwise}, or remove this injection.`,
      );
      return;
    case "type_mismatch":
      report(
        "error",
        "join_arg_type_mismatch",
        path,
        `"${arg}" of ${tool.name} takes ${fit.expected}, but ${source} is ${fit.delivered}, so the join would fail on every run: ${otherwise}, or change "${arg}" in its args schema.`,
      );
  }
}

/** Declared arguments of the tool that take the source's value. */
function getFittingArgs(tool: ToolSpec, source: InjectSource): string[] {
  const properties = tool.argsSchema.properties;
  if (properties === null || typeof properties !== "object") return [];
  return Object.keys(properties).filter((arg) =>
    isJoinInjectFit({ argsSchema: tool.argsSchema, arg, source }),
  );
}

/** A schema the tool check already refused (not an object) is not checked again here. */
function isObjectSchema(tool: ToolSpec): boolean {
  const { type, properties } = tool.argsSchema;
  if (type !== undefined && type !== "object") return false;
  return (
    properties === undefined ||
    (properties !== null && typeof properties === "object" && !Array.isArray(properties))
  );
}
