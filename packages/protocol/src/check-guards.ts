import { z } from "zod";
import type { AgentSpec } from "./agent-spec.js";
import { SCANNING_CHECK_KINDS, type Guard } from "./guards.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

const SCANNING: ReadonlySet<string> = new Set(SCANNING_CHECK_KINDS);

/**
 * What the guards' schema cannot check (docs/guides/guardrails.md): unique names, `tools` naming tools of
 * this agent (and only on `tool_result`), regular expressions that compile, a `json_schema` that is JSON
 * Schema, and `redact` only on checks that find text to mask (`max_length` redacts by cutting).
 */
export function checkGuards(spec: AgentSpec, report: Report): void {
  const names = new Set<string>();
  const tools = new Set(spec.tools.map((tool) => tool.name));
  spec.guards.forEach((guard, index) => {
    const at: Path = ["guards", index];
    if (names.has(guard.name)) {
      report("error", "duplicate_id", [...at, "name"], `Another guard is already named "${guard.name}".`);
    }
    names.add(guard.name);
    guard.tools?.forEach((tool, toolIndex) => {
      if (guard.on !== "tool_result") {
        report(
          "error",
          "invalid_value",
          [...at, "tools"],
          `"tools" only applies to tool_result guards; this guard checks the ${guard.on}. Remove "tools".`,
        );
      } else if (!tools.has(tool)) {
        report(
          "error",
          "unknown_tool",
          [...at, "tools", toolIndex],
          `Guard "${guard.name}" watches "${tool}", which is not a tool of this agent: add the tool or fix the name.`,
        );
      }
    });
    checkGuardCheck(guard, at, report);
  });
}

function checkGuardCheck(guard: Guard, at: Path, report: Report): void {
  const { check } = guard;
  if (guard.action === "redact" && !SCANNING.has(check.kind) && check.kind !== "max_length") {
    report(
      "error",
      "invalid_value",
      [...at, "action"],
      `A ${check.kind} check finds nothing to mask, so it cannot redact: use block, flag or pause (redact works with ${[...SCANNING_CHECK_KINDS, "max_length"].join(", ")}).`,
    );
  }
  if (check.kind === "deny_words" && check.regex === true) {
    check.words.forEach((word, index) => {
      try {
        new RegExp(word, "u");
      } catch (error) {
        report(
          "error",
          "invalid_value",
          [...at, "check", "words", index],
          `"${word}" is not a valid regular expression: ${(error as Error).message}.`,
        );
      }
    });
  }
  if (check.kind === "json_schema") {
    try {
      z.fromJSONSchema(check.schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      report(
        "error",
        "invalid_json_schema",
        [...at, "check", "schema"],
        `The guard's schema is not valid JSON Schema: ${(error as Error).message}.`,
      );
    }
  }
}
