import { FinalResponseArgs, type PlannerAction, type PlannerOptions } from "@waddle/protocol";
import type { z } from "zod";
import type { CheckContext, CheckedAction, CheckResult, Rejection } from "./action-check-types.js";
import type { CatalogTool } from "../catalog/catalog.js";
import { checkParallel } from "./parallel-checker.js";
import { correctionMessage, disallowed, reject, repairMessage, unknownTool } from "./rejections.js";
import { formatIssues } from "../util/format-issues.js";
import { FINAL_ARG_KEYS } from "../run/final-payload.js";
import { getOrderingGaps } from "../catalog/resolve-hints.js";
import { getFieldInfo, isPlaceholderAnswer, type FieldInfo } from "./placeholders.js";
import { screenPlaceholders } from "./screen-placeholders.js";
import { createSalvageNote, type SalvageNote } from "./salvage-rules.js";

export type { CheckContext, CheckedAction, CheckResult, Rejection } from "./action-check-types.js";

/** Checks an action against the catalog, its schemas and the hints enforced in code. Pure. */
export function checkAction(action: PlannerAction, context: CheckContext): CheckResult {
  switch (action.next_node) {
    case "final_response":
      return checkFinal(action.args);
    case "parallel":
      return checkParallel(action.args, context);
    case "task.subagent":
    case "task.tool":
      return { ok: true, checked: { kind: "task", opcode: action.next_node } };
    default:
      return checkTool(action, context);
  }
}

/**
 * `final_response` args: an answer is needed (else `missing_answer`, which re-asks for it alone). Sources
 * given as strings become `{url}`/`{title}`; optional fields that do not validate are kept aside for the
 * payload's `extra` instead of costing a repair; unknown keys are noted (docs/empty-final-answer.md).
 */
function checkFinal(rawArgs: Record<string, unknown>): CheckResult {
  const notes: SalvageNote[] = [];
  const args = readSourceStrings(rawArgs, notes);
  const parsed = FinalResponseArgs.safeParse(args);
  let data: FinalResponseArgs;
  let invalid: Record<string, unknown> | undefined;
  if (parsed.success) data = parsed.data;
  else {
    const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
    invalid = Object.fromEntries(Object.entries(args).filter(([key]) => bad.has(key)));
    data = FinalResponseArgs.parse(Object.fromEntries(Object.entries(args).filter(([key]) => !bad.has(key))));
  }
  if (
    typeof data.answer !== "string" ||
    data.answer.trim().length === 0 ||
    isPlaceholderAnswer(data.answer)
  ) {
    const fallback: CheckedAction = { kind: "final", args: data };
    if (invalid !== undefined) fallback.invalid = invalid;
    return reject({
      code: "missing_answer",
      message: repairMessage(
        "missing_answer",
        'final_response needs args.answer: the text to show the user. Reply {"next_node": "final_response", "args": {"answer": "…"}}.',
      ),
      purpose: "repair",
      repairKind: "opcode_args",
      fallback,
    });
  }
  const checked: CheckedAction = { kind: "final", args: data };
  if (invalid !== undefined) {
    checked.invalid = invalid;
    const keys = Object.keys(invalid).join(", ");
    notes.push(
      createSalvageNote(
        "final_invalid_moved",
        `${keys} did not validate (${formatIssues(parsed.error?.issues ?? [])}): kept under extra`,
      ),
    );
  }
  const unknown = Object.keys(data).filter((key) => !FINAL_ARG_KEYS.has(key));
  if (unknown.length > 0) {
    notes.push(createSalvageNote("final_extra", `${unknown.join(", ")} kept under the payload's extra`));
  }
  return notes.length === 0 ? { ok: true, checked } : { ok: true, checked, notes };
}

/** `sources: ["https://…", "Annual report"]` as `[{url: …}, {title: …}]`. */
function readSourceStrings(args: Record<string, unknown>, notes: SalvageNote[]): Record<string, unknown> {
  const sources = args.sources;
  if (!Array.isArray(sources) || !sources.some((source) => typeof source === "string")) return args;
  notes.push(createSalvageNote("sources_strings"));
  const shaped = sources.map((source) =>
    typeof source !== "string"
      ? source
      : /^https?:\/\//i.test(source.trim())
        ? { url: source.trim() }
        : { title: source },
  );
  return { ...args, sources: shaped };
}

function checkTool(action: PlannerAction, context: CheckContext): CheckResult {
  const node = action.next_node;
  const tool = context.catalog.get(node);
  if (tool === undefined) return reject(unknownTool(node, context.catalog));
  if (context.hints.disallowed.has(node)) return reject(disallowed(node));
  // Only the LLM writes placeholders: a person's edit or a tool's output is taken as it is.
  const screened = context.skipSoftHints === true ? undefined : screenPlaceholders(tool, action.args);
  if (screened?.rejection !== undefined) return reject(screened.rejection);
  let given = screened?.args ?? action.args;
  let parsed = tool.args.safeParse(given);
  let coerced: string[] | undefined;
  if (!parsed.success && context.skipSoftHints !== true) {
    // Numbers and booleans sent as strings ("5", "true") are read as what they plainly are.
    const retry = coercePrimitives(given, parsed.error.issues);
    if (retry !== undefined) {
      const again = tool.args.safeParse(retry.args);
      if (again.success) {
        parsed = again;
        given = retry.args;
        coerced = retry.fields;
      }
    }
  }
  if (!parsed.success) {
    return reject(invalidArgs(tool, given, parsed.error.issues, context.options, screened?.fields));
  }
  const args = parsed.data as Record<string, unknown>;
  if (context.skipSoftHints !== true) {
    const soft = checkSoftHints(tool, args, context);
    if (soft !== undefined) return reject(soft);
  }
  const checked: CheckedAction = { kind: "tool", tool, args };
  if (screened === undefined && coerced === undefined) return { ok: true, checked };
  const notes: SalvageNote[] = [];
  if (screened !== undefined) {
    const dropped = screened.fields.map((field) => `${field} (${JSON.stringify(action.args[field])})`);
    notes.push(
      createSalvageNote(
        "placeholder_dropped",
        `optional args holding placeholders were dropped: ${dropped.join(", ")}`,
      ),
    );
  }
  if (coerced !== undefined) {
    notes.push(
      createSalvageNote("arg_types_coerced", `${coerced.join(", ")} sent as strings were read as values`),
    );
  }
  return { ok: true, checked, notes };
}

/** Top-level number and boolean args sent as strings, read as numbers and booleans; undefined if none. */
function coercePrimitives(
  args: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): { args: Record<string, unknown>; fields: string[] } | undefined {
  let out: Record<string, unknown> | undefined;
  const fields: string[] = [];
  for (const issue of issues) {
    if (issue.code !== "invalid_type" || issue.path.length !== 1) continue;
    const key = String(issue.path[0]);
    const value = args[key];
    if (typeof value !== "string") continue;
    const text = value.trim();
    let typed: unknown;
    if (issue.expected === "number" && /^-?\d+(?:\.\d+)?$/.test(text)) typed = Number(text);
    else if (issue.expected === "boolean" && (text === "true" || text === "false")) typed = text === "true";
    else continue;
    (out ??= { ...args })[key] = typed;
    fields.push(key);
  }
  return out === undefined ? undefined : { args: out, fields };
}

function checkSoftHints(
  tool: CatalogTool,
  args: Record<string, unknown>,
  context: CheckContext,
): Rejection | undefined {
  const { hints, catalog, visited } = context;
  // No ordering or preference hints (most agents): nothing to check, nothing to allocate.
  if (hints.ordering.length === 0 && hints.orderSources.size === 0 && hints.preferred.length === 0) {
    return undefined;
  }
  // Keyed by the skipped tools: once the LLM confirmed skipping them, later tools are not held up again.
  const gaps = getOrderingGaps({ hints, tool: tool.name, visited, catalog }).filter(
    (gap) => !context.corrections.includes(`ordering_hints:${gap}`),
  );
  if (gaps.length > 0) {
    return {
      code: "ordering_hint",
      message: correctionMessage(
        "ordering_hints",
        `${tool.name} usually comes after ${gaps.join(", ")}, which ${gaps.length === 1 ? "has" : "have"} not been called yet.`,
      ),
      purpose: "correction",
      constraint: { constraint: "ordering_hints", enforced: "corrected", node: tool.name },
      node: tool.name,
      softKeys: gaps.map((gap) => `ordering_hints:${gap}`),
    };
  }
  if (
    hints.preferred.length > 0 &&
    !hints.preferred.includes(tool.name) &&
    !context.corrections.includes("prefer_nodes")
  ) {
    // A preferred tool is a substitute when it accepts the very same args; only then is the choice a miss.
    const substitute = hints.preferred.find((name) => {
      const candidate = catalog.get(name);
      return (
        candidate !== undefined &&
        !hints.disallowed.has(name) &&
        !visited.has(name) &&
        candidate.args.safeParse(args).success
      );
    });
    if (substitute !== undefined) {
      return {
        code: "prefer_hint",
        message: correctionMessage(
          "prefer_nodes",
          `${substitute} is preferred over ${tool.name} and accepts the same args.`,
        ),
        purpose: "correction",
        constraint: { constraint: "prefer_nodes", enforced: "corrected", node: tool.name },
        node: tool.name,
        softKeys: ["prefer_nodes"],
      };
    }
  }
  return undefined;
}

function invalidArgs(
  tool: CatalogTool,
  args: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  options: PlannerOptions,
  placeholders: readonly string[] = [],
): Rejection {
  // A top-level field that is absent (or held a placeholder) is missing, whatever zod calls it: enums,
  // literals, unions and nullable fields included.
  const missing = [
    ...new Set(
      issues
        .filter((issue) => issue.path.length === 1 && args[String(issue.path[0])] === undefined)
        .map((issue) => String(issue.path[0])),
    ),
  ];
  const onlyMissing =
    missing.length > 0 &&
    issues.every((issue) => issue.path.length === 1 && missing.includes(String(issue.path[0])));
  const held = placeholders.filter((field) => missing.includes(field));
  const why =
    held.length === 0
      ? ""
      : ` (${held.join(", ")} held ${held.length === 1 ? "a placeholder" : "placeholders"}, not values)`;
  if (options.argFill && onlyMissing) {
    const wanted = missing.map((field) => describeField(getFieldInfo(tool.argsSchema, field)));
    const rejection: Rejection = {
      code: "missing_args",
      message: JSON.stringify({
        error: {
          code: "missing_args",
          message: `${tool.name} is missing required args: ${missing.join(", ")}${why}.`,
        },
        instruction: `Reply with a JSON object holding only these fields, with real values: ${wanted.join("; ")}.`,
      }),
      purpose: "arg_fill",
      repairKind: "arg_fill",
      node: tool.name,
      argFailure: true,
      argFill: { node: tool.name, missing, args },
    };
    if (held.length > 0) rejection.placeholders = held;
    return rejection;
  }
  const rejection: Rejection = {
    code: "invalid_args",
    message: repairMessage(
      "invalid_args",
      `args did not validate for ${tool.name}: ${formatIssues(issues)}${why}.`,
    ),
    purpose: "repair",
    repairKind: "args",
    node: tool.name,
    argFailure: true,
  };
  if (held.length > 0) rejection.placeholders = held;
  return rejection;
}

/** `intent (one of "docs", "billing"): What the user wants`, for the arg-fill instruction. */
function describeField(field: FieldInfo): string {
  const options =
    field.options === undefined
      ? field.type === undefined
        ? ""
        : ` (${field.type})`
      : ` (one of ${field.options.map((option) => JSON.stringify(option)).join(", ")})`;
  return `${field.name}${options}${field.description === undefined ? "" : `: ${field.description}`}`;
}
