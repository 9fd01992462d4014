/** Python's keywords and soft keywords: never a name in the generated code. */
const PYTHON_KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  "match",
  "case",
  "type",
  "_",
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u0085]+/g;
const MAX_COMMENT_TEXT = 120;

/**
 * A string as a Python string literal: JSON's escapes are Python's, and every character outside printable
 * ASCII is written as `\uXXXX`, so no quote, backslash, line break or triple quote of the text survives.
 */
export function toPythonString(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff
      ? `\\U${code.toString(16).padStart(8, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** A JSON value as a Python literal (`True`, `None`, dicts with string keys, …). */
export function toPythonLiteral(value: unknown, indent = ""): string {
  const flat = toFlatPythonLiteral(value);
  return flat.length <= 80 ? flat : toTallPythonLiteral(value, indent);
}

function toFlatPythonLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toFlatPythonLiteral).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([key, entry]) => `${toPythonString(key)}: ${toFlatPythonLiteral(entry)}`).join(", ")}}`;
  }
  return toTallPythonLiteral(value, "");
}

function toTallPythonLiteral(value: unknown, indent: string): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "None";
  if (typeof value === "string") return toPythonString(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((entry) => `${inner}${toPythonLiteral(entry, inner)},`).join("\n")}\n${indent}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, entry]) => `${inner}${toPythonString(key)}: ${toPythonLiteral(entry, inner)},`).join("\n")}\n${indent}}`;
  }
  return "None";
}

/** Spec text made safe for a `#` comment: one line, printable, bounded. */
export function toPythonComment(text: string): string {
  const flat = text.replace(LINE_BREAKS_AND_CONTROLS, " ").trim();
  return flat.length > MAX_COMMENT_TEXT ? `${flat.slice(0, MAX_COMMENT_TEXT - 1)}…` : flat;
}

/** True for a name Python accepts as an identifier here (ASCII, not a keyword). */
export function isPythonIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !PYTHON_KEYWORDS.has(name);
}

/** An ASCII identifier from any text: other characters become `_`, a leading digit gets a prefix. */
export function toIdentifierPart(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_]/g, "_").replace(/_+/g, "_");
  if (cleaned === "" || cleaned === "_") return "x";
  return /^[0-9]/.test(cleaned) ? `n${cleaned}` : cleaned;
}

/** `send_email` → `SendEmail`, for class names. */
export function toPascalCase(text: string): string {
  const parts = toIdentifierPart(text)
    .split("_")
    .filter((part) => part !== "");
  const joined = parts.map((part) => part[0]!.toUpperCase() + part.slice(1)).join("");
  return joined === "" ? "X" : /^[0-9]/.test(joined) ? `N${joined}` : joined;
}

/** Hands out names unique in one scope: a clash gets `_2`, `_3`, …. */
export class NameScope {
  private readonly used: Set<string>;

  constructor(reserved: Iterable<string> = []) {
    this.used = new Set(reserved);
  }

  take(wanted: string): string {
    let name = wanted;
    for (let index = 2; this.used.has(name) || PYTHON_KEYWORDS.has(name); index += 1)
      name = `${wanted}_${index}`;
    this.used.add(name);
    return name;
  }
}
