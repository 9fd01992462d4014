import { parseJson } from "@waddle/protocol";

/** How a JSON value was recovered from an LLM reply; reported in repair telemetry and tests. */
export type SalvagePath =
  "direct" | "double_encoded" | "fenced" | "embedded" | "python_literal" | "truncated";

/** What had to be fixed for the text to parse (docs/normalization.md). */
export type StringRepair =
  "control_chars" | "inner_quotes" | "smart_quotes" | "js_comments" | "unquoted_keys";

export interface SalvagedValue {
  value: unknown;
  path: SalvagePath;
  /** Set when strings had raw newlines or tabs, or quotes left unescaped, that were escaped to parse. */
  repairs?: StringRepair[];
}

const FENCE = /```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;

/**
 * Every JSON value that can be recovered from a reply, best candidates first: the whole text, fenced
 * blocks, then each balanced `{…}` region in prose, each tried as JSON, as a Python-literal dict (single
 * quotes, None/True/False, trailing commas), and, for a cut-off reply, with its brackets closed.
 */
export function salvageJsonValues(text: string): SalvagedValue[] {
  const trimmed = text.trim();
  const out: SalvagedValue[] = [];
  const direct = parseJson(trimmed);
  if (direct.ok) {
    if (typeof direct.value === "string") {
      const inner = parseJson(direct.value.trim());
      if (inner.ok) return [{ value: inner.value, path: "double_encoded" }];
    }
    return [{ value: direct.value, path: "direct" }];
  }
  const seen = new Set<string>();
  const consider = (candidate: string, path: SalvagePath): void => {
    const source = candidate.trim();
    if (source.length === 0 || seen.has(source)) return;
    seen.add(source);
    const parsed = parseLoose(source);
    if (parsed !== undefined) out.push(toSalvaged(parsed, path));
  };
  for (const match of trimmed.matchAll(FENCE)) consider(match[2] ?? "", "fenced");
  for (const region of findObjectRegions(trimmed)) {
    // The whole reply as one object that needed repairs (raw newlines, unescaped quotes) was not embedded.
    if (region.closed) consider(region.text, region.text === trimmed ? "direct" : "embedded");
    else {
      // An odd number of unescaped quotes hides the closing brace inside a "string": not a cut-off reply.
      const repaired = parseRepairedRegion(region.text);
      if (repaired !== undefined) {
        out.push(toSalvaged(repaired, "embedded"));
        continue;
      }
      const closed = closeTruncated(region.text);
      if (closed !== undefined) {
        const parsed = parseLoose(closed);
        if (parsed !== undefined) out.push({ value: parsed.value, path: "truncated" });
      }
    }
  }
  return out;
}

interface LooseParse {
  value: unknown;
  python: boolean;
  repairs?: StringRepair[];
}

function toSalvaged(parsed: LooseParse, path: SalvagePath): SalvagedValue {
  const out: SalvagedValue = { value: parsed.value, path: parsed.python ? "python_literal" : path };
  if (parsed.repairs !== undefined) out.repairs = parsed.repairs;
  return out;
}

/**
 * JSON first, then the Python-literal rewrite (which also drops trailing commas), then string repairs,
 * then a JavaScript-literal rewrite (comments, unquoted keys, typographic quotes) with the others on top.
 */
function parseLoose(text: string): LooseParse | undefined {
  const strict = parseJson(text);
  if (strict.ok) return { value: strict.value, python: false };
  const python = parsePython(text);
  if (python !== undefined) return python;
  const repaired = parseRepaired(text);
  if (repaired !== undefined) return repaired;
  const js = rewriteJsLiteral(text);
  if (js === undefined) return undefined;
  const parsed = parseJson(js.text);
  if (parsed.ok) return { value: parsed.value, python: false, repairs: js.repairs };
  const again = parsePython(js.text) ?? parseRepaired(js.text);
  return again === undefined ? undefined : { ...again, repairs: [...js.repairs, ...(again.repairs ?? [])] };
}

function parsePython(text: string): LooseParse | undefined {
  const rewritten = rewritePythonLiteral(text);
  if (rewritten === undefined) return undefined;
  const loose = parseJson(rewritten);
  return loose.ok ? { value: loose.value, python: true } : undefined;
}

const SMART_QUOTES = /[\u201C\u201D\u201E\u201F]/g;
const HAS_SMART_QUOTES = /[\u201C\u201D\u201E\u201F]/;
const IDENTIFIER = /[A-Za-z_$][\w$-]*/y;

/**
 * A JavaScript object literal as JSON: typographic double quotes as `"`, `//` and `/* *\/` comments
 * dropped, bare keys quoted (`{next_node: "search"}`). Strings are left as they are. Undefined when there
 * was nothing to rewrite.
 */
export function rewriteJsLiteral(text: string): { text: string; repairs: StringRepair[] } | undefined {
  const repairs = new Set<StringRepair>();
  let source = text;
  if (HAS_SMART_QUOTES.test(source)) {
    source = source.replace(SMART_QUOTES, '"');
    repairs.add("smart_quotes");
  }
  let out = "";
  let last = "";
  for (let index = 0; index < source.length;) {
    const char = source[index] as string;
    if (char === '"' || char === "'") {
      const end = findStringEnd(source, index);
      if (end === -1) return undefined;
      out += source.slice(index, end + 1);
      last = char;
      index = end + 1;
      continue;
    }
    if (char === "/" && (source[index + 1] === "/" || source[index + 1] === "*")) {
      const block = source[index + 1] === "*";
      const end = block ? source.indexOf("*/", index + 2) : source.indexOf("\n", index);
      index = end === -1 ? source.length : end + (block ? 2 : 0);
      repairs.add("js_comments");
      continue;
    }
    if (last === "{" || last === ",") {
      IDENTIFIER.lastIndex = index;
      const word = IDENTIFIER.exec(source);
      if (word !== null && /^\s*:/.test(source.slice(index + word[0].length, index + word[0].length + 8))) {
        out += JSON.stringify(word[0]);
        last = '"';
        index += word[0].length;
        repairs.add("unquoted_keys");
        continue;
      }
    }
    out += char;
    if (!/\s/.test(char)) last = char;
    index += 1;
  }
  return repairs.size === 0 ? undefined : { text: out, repairs: [...repairs] };
}

/** The text with its strings repaired (`repairJsonStrings`), when that makes it parse. */
function parseRepaired(text: string): LooseParse | undefined {
  const repaired = repairJsonStrings(text);
  if (repaired === undefined) return undefined;
  const parsed = parseJson(repaired.text);
  return parsed.ok ? { value: parsed.value, python: false, repairs: repaired.repairs } : undefined;
}

/** The first object of a text whose strings needed repairs to close (prose may follow it). */
function parseRepairedRegion(text: string): LooseParse | undefined {
  const repaired = repairJsonStrings(text);
  if (repaired === undefined) return undefined;
  const first = findObjectRegions(repaired.text)[0];
  if (first?.closed !== true) return undefined;
  const parsed = parseJson(first.text);
  return parsed.ok ? { value: parsed.value, python: false, repairs: repaired.repairs } : undefined;
}

const CONTROL_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Escapes what weak models leave raw inside double-quoted strings: newlines, carriage returns and tabs,
 * and quotes that cannot close the string. A quote closes a string only when what follows could follow a
 * JSON string: `:`, `}`, `]`, the end, or a comma before another value (`"`, `{`, `[`, a number,
 * `true`/`false`/`null`); `"He said "hi" to me"` becomes `"He said \"hi\" to me"`. Undefined when there was
 * nothing to repair.
 */
export function repairJsonStrings(text: string): { text: string; repairs: StringRepair[] } | undefined {
  let out = "";
  let inString = false;
  let control = false;
  let quotes = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (!inString) {
      if (char === '"') inString = true;
      out += char;
      continue;
    }
    if (char === "\\") {
      out += char + (text[index + 1] ?? "");
      index += 1;
    } else if (char === '"') {
      if (canCloseString(text, index + 1)) {
        inString = false;
        out += char;
      } else {
        quotes = true;
        out += '\\"';
      }
    } else if (char in CONTROL_ESCAPES) {
      control = true;
      out += CONTROL_ESCAPES[char];
    } else out += char;
  }
  if (!control && !quotes) return undefined;
  const repairs: StringRepair[] = [];
  if (control) repairs.push("control_chars");
  if (quotes) repairs.push("inner_quotes");
  return { text: out, repairs };
}

const VALUE_START = /^\s*(?:["{[\d-]|(?:true|false|null)(?![A-Za-z_]))/;

function canCloseString(text: string, from: number): boolean {
  let index = from;
  while (index < text.length && /\s/.test(text[index] as string)) index += 1;
  if (index >= text.length) return true;
  const next = text[index];
  if (next === ":" || next === "}" || next === "]") return true;
  return next === "," && VALUE_START.test(text.slice(index + 1, index + 16));
}

const WORD = /[A-Za-z_]\w*/y;
const PYTHON_WORDS: Readonly<Record<string, string>> = { None: "null", True: "true", False: "false" };

/**
 * Rewrites a Python-literal dict (or JSON with trailing commas) as JSON: single-quoted strings become
 * double-quoted, bare None/True/False become null/true/false, commas before a closing bracket go.
 */
export function rewritePythonLiteral(text: string): string | undefined {
  let out = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"' || char === "'") {
      const end = findStringEnd(text, index);
      if (end === -1) return undefined;
      out += char === '"' ? text.slice(index, end + 1) : requote(text.slice(index + 1, end));
      index = end + 1;
      continue;
    }
    if (char === ",") {
      let next = index + 1;
      while (next < text.length && /\s/.test(text[next] as string)) next += 1;
      if (text[next] === "}" || text[next] === "]") {
        index = next;
        continue;
      }
    }
    WORD.lastIndex = index;
    const word = WORD.exec(text);
    if (word !== null) {
      const replacement = PYTHON_WORDS[word[0]];
      out += replacement ?? word[0];
      index += word[0].length;
      continue;
    }
    out += char;
    index += 1;
  }
  return out;
}

/** Index of the quote closing the string that opens at `start`, honouring backslash escapes. */
function findStringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let index = start + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\") index += 1;
    else if (char === quote) return index;
  }
  return -1;
}

/** A single-quoted Python string body as a JSON string. */
function requote(body: string): string {
  let out = '"';
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index] as string;
    if (char === "\\") {
      const next = body[index + 1];
      // \' is only an escape in Python; JSON wants the bare quote.
      out += next === "'" ? "'" : `\\${next ?? "\\"}`;
      index += 1;
    } else if (char === '"') out += '\\"';
    else if (char === "\n") out += "\\n";
    else out += char;
  }
  return `${out}"`;
}

interface ObjectRegion {
  text: string;
  closed: boolean;
}

/** Balanced top-level `{…}` regions of a text, skipping braces inside quoted strings. */
export function findObjectRegions(text: string): ObjectRegion[] {
  const regions: ObjectRegion[] = [];
  let depth = 0;
  let start = -1;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === "\\") index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (depth > 0 && (char === '"' || char === "'")) quote = char;
    else if (char === "{") {
      if (depth === 0) start = index;
      depth += 1;
    } else if (char === "}" && depth > 0) {
      depth -= 1;
      if (depth === 0) regions.push({ text: text.slice(start, index + 1), closed: true });
    }
  }
  if (depth > 0 && start >= 0) regions.push({ text: text.slice(start), closed: false });
  return regions;
}

/** Closes the strings and brackets a cut-off JSON text left open, or undefined when it cannot. */
export function closeTruncated(text: string): string | undefined {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === "\\") index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === "{") stack.push("}");
    else if (char === "[") stack.push("]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) return undefined;
    }
  }
  let out = text.endsWith("\\") ? text.slice(0, -1) : text;
  if (quote !== undefined) out += quote;
  out = out.replace(/[\s,:]+$/, "");
  // A dangling key without a value ("…, "key") cannot be closed meaningfully: drop it.
  out = out.replace(/,\s*"[^"]*"$/, "");
  return out + stack.reverse().join("");
}
