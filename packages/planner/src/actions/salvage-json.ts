import { parseJson } from "../util/parse-json.js";

/** How a JSON value was recovered from an LLM reply; reported in repair telemetry and tests. */
export type SalvagePath =
  "direct" | "double_encoded" | "fenced" | "embedded" | "python_literal" | "truncated";

export interface SalvagedValue {
  value: unknown;
  path: SalvagePath;
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
    if (parsed !== undefined)
      out.push({ value: parsed.value, path: parsed.python ? "python_literal" : path });
  };
  for (const match of trimmed.matchAll(FENCE)) consider(match[2] ?? "", "fenced");
  for (const region of findObjectRegions(trimmed)) {
    if (region.closed) consider(region.text, "embedded");
    else {
      const closed = closeTruncated(region.text);
      if (closed !== undefined) {
        const parsed = parseLoose(closed);
        if (parsed !== undefined) out.push({ value: parsed.value, path: "truncated" });
      }
    }
  }
  return out;
}

/** JSON first, then the Python-literal rewrite (which also drops trailing commas). */
function parseLoose(text: string): { value: unknown; python: boolean } | undefined {
  const strict = parseJson(text);
  if (strict.ok) return { value: strict.value, python: false };
  const rewritten = rewritePythonLiteral(text);
  if (rewritten === undefined) return undefined;
  const loose = parseJson(rewritten);
  return loose.ok ? { value: loose.value, python: true } : undefined;
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
