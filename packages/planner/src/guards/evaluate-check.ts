import type { GuardCheck, GuardStage } from "@waddle/protocol";
import { z } from "zod";
import { createScanner } from "./checks/create-scanner.js";
import type { CheckOutcome, GuardCheckDefinition, Scanner } from "./guard-types.js";

import { judgeWithLlm, type GuardJudge } from "./llm-judge.js";
import { GuardCheckError } from "./checks/guard-check-error.js";
import { getSchemaValidator } from "../answer/answer-schema.js";
import { formatIssues } from "../util/format-issues.js";

/** Where a check runs: its stage, the tool of a tool result, the signal of its time limit. */
export interface CheckContext {
  stage: GuardStage;
  tool?: string;
  signal: AbortSignal;
}

/** What `module` and `llm` checks need from the host. */
export interface CheckHost {
  readonly modules: ReadonlyMap<string, GuardCheckDefinition>;
  /** The judge of an `llm` check (its own model, or the agent's). */
  judgeFor(check: Extract<GuardCheck, { kind: "llm" }>): GuardJudge | undefined;
}

/** A check compiled once per guard: scanners and validators are built on first use, then reused. */
export type CompiledCheck = (value: unknown, context: CheckContext) => Promise<CheckOutcome>;

export function compileCheck(check: GuardCheck, host: CheckHost): CompiledCheck {
  switch (check.kind) {
    case "pii":
    case "secrets":
    case "prompt_injection":
    case "deny_words": {
      let scanner: Scanner | undefined;
      return async (value, context) => {
        scanner ??= createScanner(check);
        const result = await scanner.scan(value, context.signal);
        return result.findings.length === 0
          ? { pass: true, findings: [] }
          : { pass: false, findings: result.findings, redacted: result.redacted };
      };
    }
    case "max_length":
      return (value) => Promise.resolve(checkMaxLength(value, check.chars));
    case "json_schema":
      return (value) => Promise.resolve(checkJsonSchema(getSchemaValidator(check.schema), value));
    case "llm":
      return async (value, context) => {
        const judge = host.judgeFor(check);
        if (judge === undefined) {
          throw new GuardCheckError("no_judge", "This llm check has no model to ask: give it an llm.");
        }
        return judgeWithLlm(judge, { prompt: check.prompt, text: toText(value), signal: context.signal });
      };
    case "module":
      return async (value, context) => {
        const definition = host.modules.get(check.name);
        if (definition === undefined) {
          throw new GuardCheckError(
            "unknown_guard_check",
            `No module check "${check.name}" is registered here: register it with defineGuardCheck.`,
          );
        }
        const result = await definition.check(value, context);
        return readModuleResult(check.name, result);
      };
  }
}

/** The text a check reads: strings as they are, anything else as JSON. */
export function toText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

function checkMaxLength(value: unknown, chars: number): CheckOutcome {
  const text = toText(value);
  if (text.length <= chars) return { pass: true, findings: [] };
  const over = text.length - chars;
  return {
    pass: false,
    findings: [{ kind: "too_long", count: 1 }],
    redacted: `${text.slice(0, chars)}…[cut ${over} chars]`,
    message: `${text.length} characters, over the limit of ${chars}.`,
  };
}

function checkJsonSchema(validator: z.ZodType, value: unknown): CheckOutcome {
  let data = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch {
      return { pass: false, findings: [{ kind: "not_json", count: 1 }], message: "The text is not JSON." };
    }
  }
  const parsed = validator.safeParse(data);
  if (parsed.success) return { pass: true, findings: [] };
  const issues = parsed.error.issues;
  return {
    pass: false,
    findings: [{ kind: "schema_error", count: issues.length }],
    message: `Does not fit the schema: ${formatIssues(issues)}.`,
  };
}

const ModuleResult = z.object({
  pass: z.boolean(),
  findings: z.array(z.object({ kind: z.string().min(1).max(64), count: z.int().positive() })).optional(),
  message: z.string().max(2_000).optional(),
  redacted: z.unknown().optional(),
});

function readModuleResult(name: string, result: unknown): CheckOutcome {
  const parsed = ModuleResult.safeParse(result);
  if (!parsed.success) {
    throw new GuardCheckError(
      "invalid_check_result",
      `Module check "${name}" answered ${JSON.stringify(result)?.slice(0, 200)}: it must return {pass, findings?, message?, redacted?}.`,
    );
  }
  const { pass, findings, message, redacted } = parsed.data;
  const outcome: CheckOutcome = {
    pass,
    findings: pass
      ? []
      : findings !== undefined && findings.length > 0
        ? findings
        : [{ kind: name, count: 1 }],
  };
  if (message !== undefined) outcome.message = message;
  if (redacted !== undefined) outcome.redacted = redacted;
  return outcome;
}
