import { REACT_PLANNER_KEYWORDS, UPSTREAM_CLASSES, UPSTREAM_SOURCE } from "./upstream-react-planner.js";

/** One entry of build_planner's `options` dict: the keyword and its value's Python text. */
export interface PlannerOption {
  keyword: string;
  value: string;
}

/** The entries of the `options: dict[str, Any] = {…}` literal in an exported planner.py. */
export function getPlannerOptions(plannerSource: string): PlannerOption[] {
  const lines = plannerSource.split("\n");
  const start = lines.indexOf("    options: dict[str, Any] = {");
  if (start < 0) throw new Error("planner.py has no `options: dict[str, Any] = {` block.");
  const options: PlannerOption[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "    }") break;
    const entry = /^ {8}"(\w+)": (.*)$/.exec(line);
    if (entry) options.push({ keyword: entry[1]!, value: entry[2]! });
    else options[options.length - 1]!.value += `\n${line}`;
  }
  return options.map((option) => ({ ...option, value: option.value.trim().replace(/,$/, "") }));
}

/** Parts of a union annotation (`str | Mapping[str, Any] | None`), brackets kept whole. */
function getUnionParts(annotation: string): string[] {
  return splitTopLevel(annotation, "|");
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    current += char;
    if (quoted) {
      if (char === "\\") current += text[(index += 1)] ?? "";
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if ("([{".includes(char)) depth += 1;
    else if (")]}".includes(char)) depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(current.slice(0, -1).trim());
      current = "";
    }
  }
  if (current.trim() !== "") parts.push(current.trim());
  return parts;
}

type LiteralKind = "None" | "bool" | "int" | "float" | "str" | "dict" | "list" | "expression";

/** What a Python value text is, without running Python: a literal kind, a constructor call, or other code. */
function getValueKind(value: string): LiteralKind | { call: string; args: string } {
  const call = /^([A-Za-z_]\w*)\(([\s\S]*)\)$/.exec(value);
  if (call) return { call: call[1]!, args: call[2]! };
  if (value === "None") return "None";
  if (value === "True" || value === "False") return "bool";
  if (/^-?\d+$/.test(value)) return "int";
  if (/^-?(?:\d+\.\d*|\.\d+|\d+(?:\.\d*)?e[+-]?\d+)$/i.test(value)) return "float";
  if (value.startsWith('"')) return "str";
  if (value.startsWith("{")) return "dict";
  if (value.startsWith("[")) return "list";
  return "expression";
}

/** Whether a literal of `kind` is a value of the annotation part `part`. */
function isLiteralOf(kind: LiteralKind, part: string): boolean {
  if (part === "Any") return true;
  if (part === "float") return kind === "float" || kind === "int";
  if (part.startsWith("Mapping[") || part.startsWith("dict[")) return kind === "dict";
  if (part.startsWith("Sequence[") || part.startsWith("list[")) return kind === "list";
  return part === kind;
}

function describe(kind: LiteralKind): string {
  return kind === "None" ? "None" : `a ${kind} literal`;
}

function getImports(source: string): Map<string, Set<string>> {
  const imports = new Map<string, Set<string>>();
  for (const match of source.matchAll(/^from ([\w.]+) import (.+)$/gm)) {
    const names = imports.get(match[1]!) ?? new Set<string>();
    for (const name of match[2]!.split(",")) names.add(name.trim());
    imports.set(match[1]!, names);
  }
  return imports;
}

function checkCall(
  where: string,
  call: { call: string; args: string },
  parts: string[],
  imports: Map<string, Set<string>>,
): string[] {
  const recorded = UPSTREAM_CLASSES[call.call];
  if (!parts.includes(call.call) || recorded?.kind !== "model")
    return [`${where}: ${call.call}(…) where ReactPlanner takes ${parts.join(" | ")}`];
  const problems: string[] = [];
  if (!imports.get(recorded.module)?.has(call.call))
    problems.push(`${where}: ${call.call} is not imported from ${recorded.module}`);
  for (const argument of splitTopLevel(call.args, ",")) {
    const named = /^(\w+)=([\s\S]+)$/.exec(argument);
    const field = named ? recorded.fields[named[1]!] : undefined;
    if (!named || field === undefined) {
      problems.push(`${where}: ${call.call} has no field for \`${argument}\``);
      continue;
    }
    const kind = getValueKind(named[2]!.trim());
    if (typeof kind === "string" && kind !== "expression" && !isLiteralOf(kind, field))
      problems.push(`${where}: ${call.call}.${named[1]} is ${describe(kind)}, upstream takes ${field}`);
  }
  return problems;
}

/**
 * Problems of build_planner's options against `REACT_PLANNER_KEYWORDS`: an unknown keyword, a literal of
 * the wrong type, a dict or literal where upstream takes a model (constructed with `Model(…)` from its
 * module, with fields the model has). Values that are code (`CATALOG`, `llm if … else LLM`) are left to
 * the Python check.
 */
export function checkPlannerOptions(plannerSource: string): string[] {
  const imports = getImports(plannerSource);
  const problems: string[] = [];
  for (const { keyword, value } of getPlannerOptions(plannerSource)) {
    const annotation = REACT_PLANNER_KEYWORDS[keyword];
    const where = `${keyword} (${UPSTREAM_SOURCE})`;
    if (annotation === undefined) {
      problems.push(`${where}: ReactPlanner has no such keyword`);
      continue;
    }
    const parts = getUnionParts(annotation);
    const kind = getValueKind(value);
    if (typeof kind !== "string") problems.push(...checkCall(where, kind, parts, imports));
    else if (kind !== "expression" && !parts.some((part) => isLiteralOf(kind, part)))
      problems.push(`${where}: ${describe(kind)} where ReactPlanner takes ${annotation}`);
  }
  return problems;
}
