import type { z } from "zod";

/**
 * zod's issues in plain words, for people: "Name is too long: at most 200 characters." rather than
 * "Too big: expected string to have <=200 characters". Used by the spec validation (the designer's Issues
 * panel, `POST /api/agents/validate`, the CLI) and by the server's 400 answers to bad requests.
 */

/** What a reader calls the field at `path`: its last name in words (`sampleQueries` → "Sample queries"). */
export function getFieldLabel(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  if (last === undefined) return "The value";
  if (typeof last === "number") {
    const parent = path.length > 1 ? getFieldLabel(path.slice(0, -1)) : "the list";
    return `Item ${last + 1} of ${parent === "The value" ? "the list" : lowerFirst(parent)}`;
  }
  const words = String(last)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  if (words === "") return "The value";
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One issue as a sentence naming its field (ends with "."). `value` is what was given there, if known. */
export function describeZodIssue(issue: z.core.$ZodIssue, value?: unknown): string {
  // a message the schema's author wrote ("must be a run id such as run_4f9c2a1b") is kept as it is
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return `${issue.message.replace(/\.$/, "")}.`;
  const label = getFieldLabel(issue.path as PropertyKey[]);
  return `${describeProblem(issue, label, value)}.`;
}

/** How zod's own messages begin (zod 4's English locale); anything else was written by a schema's author. */
const ZOD_DEFAULT_MESSAGE =
  /^(Invalid|Too (big|small)|Unrecognized key|Expected|Required|Number must|String must)/;

function describeProblem(issue: z.core.$ZodIssue, label: string, value: unknown): string {
  switch (issue.code) {
    case "too_big":
      return describeTooBig(issue, label);
    case "too_small":
      return describeTooSmall(issue, label);
    case "invalid_type": {
      const given = value ?? issue.input;
      // zod says "received undefined" for a field that is not there, whether or not the value is known here
      if (given === undefined && /received undefined/.test(issue.message)) return `${label} is missing`;
      if (given === undefined) return `${label} should be ${withArticle(issue.expected)}`;
      return `${label} should be ${withArticle(issue.expected)}, not ${describeType(given)}`;
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `${label} must be ${JSON.stringify(issue.values[0])}`
        : `${label} must be one of ${issue.values.map((item) => JSON.stringify(item)).join(", ")}`;
    case "invalid_format":
      return issue.format === "regex"
        ? `${label} does not have the expected form`
        : `${label} is not a valid ${FORMAT_NAMES[issue.format] ?? issue.format}`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.map((key) => `"${key}"`).join(", ")}: remove ${issue.keys.length === 1 ? "it" : "them"} or check the spelling`;
    case "not_multiple_of":
      return `${label} must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return `${label} does not match any of the accepted forms`;
    case "invalid_key":
      return `${label} has a key that is not allowed`;
    case "invalid_element":
      return `${label} has an element that is not allowed`;
    default:
      // refinements (`custom`) carry messages written for people already
      return issue.message.replace(/\.$/, "");
  }
}

function describeTooBig(issue: z.core.$ZodIssueTooBig, label: string): string {
  const limit = Number(issue.maximum);
  const max = issue.inclusive === false && Number.isInteger(limit) ? limit - 1 : limit;
  switch (issue.origin) {
    case "string":
      return `${label} is too long: at most ${max} character${max === 1 ? "" : "s"}`;
    case "array":
    case "set":
      return `${label} has too many items: at most ${max}`;
    case "number":
    case "int":
    case "bigint":
      return issue.inclusive === false && !Number.isInteger(limit)
        ? `${label} is too large: it must be below ${limit}`
        : `${label} is too large: at most ${max}`;
    case "file":
      return `${label} is too large: at most ${max} bytes`;
    default:
      return `${label} is too large: at most ${max}`;
  }
}

function describeTooSmall(issue: z.core.$ZodIssueTooSmall, label: string): string {
  const limit = Number(issue.minimum);
  const min = issue.inclusive === false && Number.isInteger(limit) ? limit + 1 : limit;
  switch (issue.origin) {
    case "string":
      return min <= 1 ? `${label} cannot be empty` : `${label} is too short: at least ${min} characters`;
    case "array":
    case "set":
      return min <= 1 ? `${label} needs at least one item` : `${label} needs at least ${min} items`;
    case "number":
    case "int":
    case "bigint":
      return issue.inclusive === false && !Number.isInteger(limit)
        ? `${label} is too small: it must be above ${limit}`
        : `${label} is too small: at least ${min}`;
    default:
      return `${label} is too small: at least ${min}`;
  }
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  url: "URL",
  email: "email address",
  uuid: "UUID",
  datetime: "date and time (ISO 8601)",
  date: "date (YYYY-MM-DD)",
  ipv4: "IPv4 address",
  ipv6: "IPv6 address",
};

function withArticle(expected: string): string {
  const names: Record<string, string> = {
    string: "text",
    number: "a number",
    int: "a whole number",
    boolean: "true or false",
    object: "an object",
    array: "a list",
    null: "null",
  };
  return names[expected] ?? (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  if (typeof value === "object") return "an object";
  return typeof value;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
