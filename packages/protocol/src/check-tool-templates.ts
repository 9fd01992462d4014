import type { JsonSchema, ToolSpec } from "./agent-spec.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

/** `{name}` / `{a.b[0]}` as http tools fill them (also the inside of a mistaken `{{args.name}}`). */
const HTTP_PLACEHOLDER = /\{([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*)\}/g;
/** `{{path}}` as `renderTemplate` fills it (llm prompts, mock outputs). */
const DOUBLE_PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*)\s*\}\}/g;
/** A single-brace `{name}` that is not part of `{{…}}`. */
const LONE_SINGLE_PLACEHOLDER = /(?<!\{)\{([A-Za-z_][\w]*)\}(?!\})/g;
/** What `{{…}}` templates may read besides `args` (`renderTemplate`'s scope). */
const SCOPE_ROOTS = new Set(["args", "query", "last", "steps", "call"]);

/** The argument names a tool's args schema declares, or undefined when it declares none (nothing to check). */
export function getArgNames(schema: JsonSchema): Set<string> | undefined {
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return undefined;
  return new Set(Object.keys(properties));
}

function getRequired(schema: JsonSchema): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === "string")
    : [];
}

function getRoot(path: string): string {
  return /^[^.[]+/.exec(path)?.[0] ?? path;
}

/** Every string of a template value with its path (objects and arrays walked). */
function collectStrings(value: unknown, at: Path, out: Array<[string, Path]> = []): Array<[string, Path]> {
  if (typeof value === "string") out.push([value, at]);
  else if (Array.isArray(value)) value.forEach((item, i) => collectStrings(item, [...at, i], out));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) collectStrings(item, [...at, key], out);
  }
  return out;
}

function listNames(names: Set<string>): string {
  return names.size === 0 ? "it has no arguments" : `its arguments are ${[...names].join(", ")}`;
}

/**
 * Checks the templates of http, llm and mock tools against the tool's args schema, in the syntax each kind
 * fills (`{name}` for http URLs, query and bodies; `{{args.name}}` for llm prompts and mock outputs): a
 * placeholder naming no argument is an error (it fails or renders empty at run time), and a required
 * argument that no template of an http tool without a JSON body or of an llm prompt uses is a warning.
 */
export function checkToolTemplates(tool: ToolSpec, at: Path, report: Report): void {
  const args = getArgNames(tool.argsSchema);
  if (args === undefined) return;
  const impl = tool.impl;
  const addArgument = (name: string) => ({
    action: "add_argument" as const,
    label: `Add argument "${name}"`,
    tool: tool.name,
    name,
  });
  const used = new Set<string>();
  if (impl.kind === "http") {
    const templates: Array<[string, Path]> = [[impl.url, [...at, "impl", "url"]]];
    for (const [name, value] of Object.entries(impl.query))
      templates.push([value, [...at, "impl", "query", name]]);
    if (typeof impl.body === "object") collectStrings(impl.body, [...at, "impl", "body"], templates);
    for (const [text, path] of templates) {
      for (const match of text.matchAll(HTTP_PLACEHOLDER)) {
        const placeholder = match[1]!;
        const doubled = text[match.index - 1] === "{" && text[match.index + match[0].length] === "}";
        const name =
          doubled && placeholder.startsWith("args.") ? getRoot(placeholder.slice(5)) : getRoot(placeholder);
        const known = args.has(name);
        if (known) used.add(name);
        if (known && !doubled) continue;
        report(
          "error",
          "unknown_template_arg",
          path,
          doubled
            ? `"{{${placeholder}}}" is not how http tools fill values: write {${name}}${known ? "" : `, and add "${name}" to the arguments (${listNames(args)})`}.`
            : `{${placeholder}} names no argument of ${tool.name} (${listNames(args)}): rename it or add the argument.`,
          known ? undefined : addArgument(name),
        );
      }
    }
    for (const [name, value] of Object.entries(impl.headers)) {
      if (typeof value !== "string") continue;
      for (const match of value.matchAll(HTTP_PLACEHOLDER)) {
        report(
          "error",
          "unfilled_template",
          [...at, "impl", "headers", name],
          `Header "${name}" is sent as written: {${match[1]!}} is never filled. Put the value in the URL, query or body, or use {"secret": "NAME"} for a key.`,
        );
      }
    }
    const sendsArgs = impl.body === "args" && impl.method !== "GET" && impl.method !== "DELETE";
    if (!sendsArgs) reportUnused(tool, { args, used, path: [...at, "impl", "url"], report, kind: "http" });
    return;
  }
  if (impl.kind === "llm" || impl.kind === "mock") {
    const templates =
      impl.kind === "llm"
        ? [[impl.prompt, [...at, "impl", "prompt"]] as [string, Path]]
        : collectStrings(impl.output, [...at, "impl", "output"]);
    for (const [text, path] of templates) {
      for (const match of text.matchAll(DOUBLE_PLACEHOLDER)) {
        const placeholder = match[1]!;
        const root = getRoot(placeholder);
        if (root === "args") {
          const name = getRoot(placeholder.slice(5));
          if (placeholder === "args" || args.has(name)) {
            if (placeholder === "args") args.forEach((arg) => used.add(arg));
            else used.add(name);
            continue;
          }
          // A mock renders a missing value as null (a stand-in, not a failure): a warning there.
          report(
            impl.kind === "llm" ? "error" : "warning",
            "unknown_template_arg",
            path,
            `{{${placeholder}}} names no argument of ${tool.name} (${listNames(args)}): it renders empty. Rename it or add "${name}".`,
            addArgument(name),
          );
        } else if (!SCOPE_ROOTS.has(root)) {
          report(
            impl.kind === "llm" ? "error" : "warning",
            "unknown_template_arg",
            path,
            `{{${placeholder}}} reads nothing: templates read {{args.NAME}}, {{query}}, {{last}}, {{steps.TOOL}} or {{call}}${args.has(root) ? ` (did you mean {{args.${placeholder}}}?)` : ""}.`,
          );
        }
      }
      if (impl.kind !== "llm") continue;
      for (const match of text.matchAll(LONE_SINGLE_PLACEHOLDER)) {
        if (!args.has(match[1]!)) continue;
        report(
          "warning",
          "unfilled_template",
          path,
          `{${match[1]!}} stays as written in the prompt: llm prompts fill {{args.${match[1]!}}}.`,
        );
      }
    }
    if (impl.kind === "llm") {
      reportUnused(tool, { args, used, path: [...at, "impl", "prompt"], report, kind: "llm" });
    }
  }
}

function reportUnused(
  tool: ToolSpec,
  options: { args: Set<string>; used: Set<string>; path: Path; report: Report; kind: "http" | "llm" },
): void {
  for (const name of getRequired(tool.argsSchema)) {
    if (!options.args.has(name) || options.used.has(name)) continue;
    options.report(
      "warning",
      "unused_required_arg",
      options.path,
      options.kind === "http"
        ? `The required argument "${name}" is never sent: no URL, query or body template uses it ({${name}}).`
        : `The required argument "${name}" never reaches the model: the prompt does not use {{args.${name}}}.`,
    );
  }
}
