import type { z } from "zod";
import { AgentSpec } from "./agent-spec.js";
import { checkSpecReferences } from "./check-spec-references.js";
import { describeZodIssue } from "./describe-zod-issue.js";
import { getBestEffortSpec } from "./get-best-effort-spec.js";
import { formatJsonPath } from "./json-path.js";
import { getReservedNameMessage, RESERVED_TOOL_NAMES } from "./names.js";
import { getPathValue } from "./render-template.js";
import type { SpecIssue, SpecIssueCode, SpecIssueTarget } from "./spec-issue.js";

export type ValidateAgentSpecResult =
  { ok: true; spec: AgentSpec; issues: SpecIssue[] } | { ok: false; spec?: undefined; issues: SpecIssue[] };

/**
 * Validates a spec: its structure (zod) and its cross references (names, edges, groups, hints, schemas).
 * Returns the parsed spec with any warnings, or the issues only when there is an error. Cross references
 * are checked even when the structure is broken, on a best-effort reading, so that every problem shows.
 */
export function validateAgentSpec(input: unknown): ValidateAgentSpecResult {
  const parsed = AgentSpec.safeParse(input);
  const structural = parsed.success ? [] : parsed.error.issues.flatMap((issue) => mapZodIssue(issue, input));
  const view = parsed.success ? { spec: parsed.data, indices: {} } : getBestEffortSpec(input);
  const references = view ? checkSpecReferences(view.spec, view.indices) : [];
  const issues = dedupeIssues([...structural, ...references], input);
  if (parsed.success && !issues.some((issue) => issue.severity === "error")) {
    return { ok: true, spec: parsed.data, issues };
  }
  return { ok: false, issues };
}

/** Parses a spec or throws a `SpecError` listing every issue. */
export function parseAgentSpec(input: unknown): AgentSpec {
  const result = validateAgentSpec(input);
  if (result.ok) return result.spec;
  throw new SpecError(result.issues);
}

/** Thrown by `parseAgentSpec`; `issues` says what to fix and where. */
export class SpecError extends Error {
  readonly code = "invalid_spec" as const;
  constructor(readonly issues: SpecIssue[]) {
    const errors = issues.filter((issue) => issue.severity === "error");
    const first = errors[0];
    super(
      first
        ? `Invalid agent spec: ${first.path}: ${first.message}${errors.length > 1 ? ` (+${errors.length - 1} more)` : ""}`
        : "Invalid agent spec",
    );
    this.name = "SpecError";
  }
}

/** The element of the spec a path points into: a tool (by name), an edge or group (by id), …. */
export function getIssueTarget(segments: readonly PropertyKey[], input: unknown): SpecIssueTarget {
  const [head, index] = segments;
  const idOf = (collection: string, key: string): string | undefined => {
    if (typeof index !== "number") return undefined;
    const value = getPathValue(input, `${collection}[${index}].${key}`);
    return typeof value === "string" ? value : undefined;
  };
  switch (head) {
    case "tools":
      return withId("tool", idOf("tools", "name"));
    case "edges":
      return withId("edge", idOf("edges", "id"));
    case "groups":
      return withId("group", idOf("groups", "id"));
    case "hints":
      return { kind: "hints" };
    case "llm":
    case "summarizerLlm":
    case "routerLlm":
    case "candidateLlms":
      return { kind: "llm", id: head };
    case "planner":
      return { kind: "planner" };
    case "layout":
      return { kind: "layout" };
    default:
      return { kind: "agent" };
  }
}

function withId(kind: SpecIssueTarget["kind"], id: string | undefined): SpecIssueTarget {
  return id === undefined ? { kind } : { kind, id };
}

const SECRET_LIKE_KEYS = new Set(["apiKey", "api_key", "key", "token", "secret", "password"]);

function mapZodIssue(issue: z.core.$ZodIssue, input: unknown): SpecIssue[] {
  const segments = issue.path as PropertyKey[];
  const make = (code: SpecIssueCode, message: string, path = segments): SpecIssue => ({
    severity: "error",
    path: formatJsonPath(path),
    code,
    message,
    target: getIssueTarget(path, input),
  });
  const where = formatJsonPath(segments);
  const value = getPathValue(input, where.slice(1).replace(/^\./, ""));
  const last = segments.at(-1);
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) =>
        make(
          "unknown_key",
          SECRET_LIKE_KEYS.has(key)
            ? `Unknown field "${key}". A spec never holds keys or secrets: name the environment variable in "apiKeyEnv", or use {"secret": "NAME"} in http headers.`
            : `Unknown field "${key}": remove it or check its spelling.`,
          [...segments, key],
        ),
      );
    case "invalid_type":
      if (value === undefined) return [make("missing_field", `Required field "${String(last)}" is missing.`)];
      return [make("invalid_type", `Expected ${issue.expected}, got ${describeType(value)}.`)];
    case "invalid_format":
      return [mapFormatIssue(issue, segments, value, make)];
    case "invalid_union":
      if ("discriminator" in issue && issue.discriminator) {
        const options = (issue as { options?: unknown[] }).options ?? [];
        return [
          make("invalid_value", `"${String(issue.discriminator)}" must be one of ${options.join(", ")}.`),
        ];
      }
      return [make("invalid_value", describeZodIssue(issue, value))];
    case "invalid_value":
      return [
        make(
          "invalid_value",
          `Must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`}; got ${JSON.stringify(value)}.`,
        ),
      ];
    case "too_small":
      return [make("too_small", describeZodIssue(issue, value))];
    case "too_big":
      return [make("too_big", describeZodIssue(issue, value))];
    default:
      return [make("invalid_value", describeZodIssue(issue, value))];
  }
}

function mapFormatIssue(
  issue: z.core.$ZodIssueInvalidStringFormat,
  segments: PropertyKey[],
  value: unknown,
  make: (code: SpecIssueCode, message: string) => SpecIssue,
): SpecIssue {
  const last = segments.at(-1);
  const shown = JSON.stringify(value);
  if (issue.format === "regex") {
    if (last === "id" || last === "agentId") {
      return make(
        "invalid_slug",
        `${shown} is not a slug: use lower-case letters, digits, "-" and "_", starting with a letter or digit (max 64).`,
      );
    }
    if (last === "apiKeyEnv" || last === "secret") {
      return make("invalid_env_name", `${shown} is not an environment variable name (e.g. OPENAI_API_KEY).`);
    }
    if (last === "credential") {
      return make(
        "invalid_env_name",
        `${shown} is not a credential name: use 1-64 upper-case letters, digits or "_" (e.g. OPENAI_KEY).`,
      );
    }
    if (
      segments[0] === "tools" &&
      last === "name" &&
      typeof value === "string" &&
      RESERVED_TOOL_NAMES.has(value)
    ) {
      return make("reserved_tool_name", getReservedNameMessage(value));
    }
    return make(
      "invalid_tool_name",
      `${shown} is not a valid tool name: start with a letter or "_" and use only letters, digits and "_" (max 64).`,
    );
  }
  if (issue.format === "url") return make("invalid_url", `${shown} is not an http(s) URL.`);
  return make("invalid_format", describeZodIssue(issue, value));
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

/**
 * Each problem once, where it is: the same code at the same path once; no warning where there is an
 * error already; a tool name that breaks the name pattern only at the tool itself, not again at each
 * edge, group or join naming it (a name that names no tool is reported as an unknown tool instead).
 */
function dedupeIssues(issues: SpecIssue[], input: unknown): SpecIssue[] {
  const errorPaths = new Set(issues.filter((issue) => issue.severity === "error").map((issue) => issue.path));
  const codesAt = new Map<string, Set<string>>();
  for (const issue of issues) codesAt.set(issue.path, (codesAt.get(issue.path) ?? new Set()).add(issue.code));
  const toolNames = getInputToolNames(input);
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path} ${issue.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if (issue.severity === "warning" && errorPaths.has(issue.path)) return false;
    if (!NAME_CODES.has(issue.code) || TOOL_NAME_PATH.test(issue.path)) return true;
    const value = getPathValue(input, issue.path.slice(1).replace(/^\./, ""));
    if (typeof value === "string" && toolNames.has(value)) return false;
    return !codesAt.get(issue.path)?.has("unknown_tool");
  });
}

const NAME_CODES: ReadonlySet<string> = new Set<SpecIssueCode>(["invalid_tool_name", "reserved_tool_name"]);
const TOOL_NAME_PATH = /^\$\.tools\[\d+\]\.name$/;

function getInputToolNames(input: unknown): Set<string> {
  const tools = (input as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return new Set();
  return new Set(
    tools.flatMap((tool: unknown) => {
      const name = (tool as { name?: unknown } | null)?.name;
      return typeof name === "string" ? [name] : [];
    }),
  );
}
