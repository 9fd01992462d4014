import {
  SCANNING_CHECK_KINDS,
  type Guard,
  type GuardAction,
  type GuardCheck,
  type GuardCheckKind,
  type GuardStage,
  type SpecIssue,
} from "@waddle/protocol";

/** The stages in the words Settings uses: what the guard looks at. */
export const STAGE_LABELS: Record<GuardStage, string> = {
  input: "Query",
  tool_result: "Tool results",
  output: "Answer",
};

export const STAGE_HINTS: Record<GuardStage, string> = {
  input: "The user's query, before the first model call.",
  tool_result: "Each tool's result, before the model sees it.",
  output: "The final answer, held back from every stream until it passes.",
};

/** Each check kind: its name in the menu and what it looks for. */
export const CHECK_KINDS: Record<GuardCheckKind, { label: string; hint: string }> = {
  pii: { label: "Personal data", hint: "Emails, phone numbers, payment cards (Luhn-checked) and IBANs." },
  secrets: { label: "Secrets", hint: "Common API key, token and private key formats." },
  prompt_injection: {
    label: "Prompt injection",
    hint: "Instructions addressed to the model inside a tool's result.",
  },
  deny_words: { label: "Denied words", hint: "Words or regular expressions that must not pass." },
  max_length: { label: "Maximum length", hint: "Text longer than a number of characters." },
  json_schema: { label: "JSON schema", hint: "The text must be JSON valid against a schema." },
  llm: { label: "Model judge", hint: "A judging prompt: the model answers pass or fail and why." },
  module: { label: "Module", hint: "A function registered on the server with defineGuardCheck." },
};

export const ACTION_LABELS: Record<GuardAction, string> = {
  block: "Block",
  redact: "Redact",
  flag: "Flag",
  pause: "Pause for a person",
};

/** What each action does at a stage, for the hint under the menu. */
export function getActionHint(action: GuardAction, on: GuardStage): string {
  switch (action) {
    case "block":
      return on === "tool_result"
        ? "The result becomes a tool error the model sees, with the guard's message."
        : "The run stops (guard_blocked) with the guard's message; nothing of the answer reaches the caller.";
    case "redact":
      return on === "tool_result"
        ? "What was found is masked ([email], [card]) before the model sees it; the original is never stored."
        : "What was found is masked ([email], [card]) before it goes on; the original is never stored.";
    case "flag":
      return "It passes as it is; the run records the verdict.";
    case "pause":
      return "The run waits for a person (the inbox): approve lets it pass, reject blocks it.";
  }
}

const REDACTING: ReadonlySet<string> = new Set([...SCANNING_CHECK_KINDS, "max_length"]);

/** Redact needs something to mask: scanning checks, and max_length (it cuts). */
export function canRedact(kind: GuardCheckKind): boolean {
  return REDACTING.has(kind);
}

/** The actions a check kind allows, in menu order. */
export function getGuardActions(kind: GuardCheckKind): GuardAction[] {
  return canRedact(kind) ? ["block", "redact", "flag", "pause"] : ["block", "flag", "pause"];
}

/** A check of a kind with options a person can start from (an empty word list says what to fill in). */
export function createGuardCheck(kind: GuardCheckKind): GuardCheck {
  switch (kind) {
    case "max_length":
      return { kind, chars: 4_000 };
    case "deny_words":
      return { kind, words: [] };
    case "json_schema":
      return { kind, schema: { type: "object", properties: {}, required: [] } };
    case "llm":
      return { kind, prompt: "Fail if the text is rude, or promises anything the agent cannot do." };
    case "module":
      return { kind, name: "" };
    default:
      return { kind };
  }
}

const DEFAULT_STAGES: Record<GuardCheckKind, GuardStage> = {
  pii: "tool_result",
  secrets: "output",
  prompt_injection: "tool_result",
  deny_words: "output",
  max_length: "output",
  json_schema: "output",
  llm: "output",
  module: "output",
};

/** A new guard of a kind, named after it (`pii`, `pii-2`) so that it is unique among `existing`. */
export function createGuard(kind: GuardCheckKind, existing: readonly Pick<Guard, "name">[]): Guard {
  const names = new Set(existing.map((guard) => guard.name));
  const base = kind.replaceAll("_", "-");
  let name = base;
  for (let number = 2; names.has(name); number += 1) name = `${base}-${number}`;
  return {
    name,
    on: DEFAULT_STAGES[kind],
    check: createGuardCheck(kind),
    // masking is the natural answer to personal data and secrets; anything else is stopped
    action: kind === "pii" || kind === "secrets" ? "redact" : "block",
    onError: "block",
    timeoutMs: 10_000,
  };
}

/** The guard with a new check kind: its options start over, and an action the kind cannot do becomes block. */
export function setGuardCheckKind(guard: Guard, kind: GuardCheckKind): Guard {
  if (guard.check.kind === kind) return guard;
  const action = getGuardActions(kind).includes(guard.action) ? guard.action : "block";
  return { ...guard, check: createGuardCheck(kind), action };
}

/** The guard at another stage: `tools` only belongs to tool_result guards. */
export function setGuardStage(guard: Guard, on: GuardStage): Guard {
  if (guard.on === on) return guard;
  const { tools: _tools, ...rest } = guard;
  return on === "tool_result" && guard.tools ? { ...guard, on } : { ...rest, on };
}

/** "Personal data on tool results → redact", for a row's summary. */
export function getGuardSummary(guard: Guard): string {
  const check = CHECK_KINDS[guard.check.kind]?.label ?? guard.check.kind;
  const where =
    guard.on === "tool_result" && guard.tools ? guard.tools.join(", ") : STAGE_LABELS[guard.on].toLowerCase();
  return `${check} on ${where} → ${guard.action}`;
}

/** Moves the guard at `index` by `delta` (guards of a stage run in list order). */
export function moveGuard(guards: readonly Guard[], index: number, delta: -1 | 1): Guard[] {
  const target = index + delta;
  if (target < 0 || target >= guards.length) return [...guards];
  const next = [...guards];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** Where the validator reports the guards: `$.guards`, `$.guards[2].check.words[0]`, … */
export const GUARDS_PATH = "$.guards";

const isUnder = (path: string, base: string) =>
  path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}[`);

/** True for an issue Settings → Guards shows, so revealing it opens Settings rather than the inspector. */
export function isGuardIssue(issue: Pick<SpecIssue, "path">): boolean {
  return isUnder(issue.path, GUARDS_PATH);
}

/** The issues of the guard at `index`. */
export function getGuardIssues(issues: readonly SpecIssue[], index: number): SpecIssue[] {
  return issues.filter((issue) => isUnder(issue.path, `${GUARDS_PATH}[${index}]`));
}

/** The issues of one field of a guard (`name`, `check.words`, `tools`), from that guard's issues. */
export function getFieldIssues(issues: readonly SpecIssue[], index: number, field: string): SpecIssue[] {
  return issues.filter((issue) => isUnder(issue.path, `${GUARDS_PATH}[${index}].${field}`));
}
