import { parseJson, type JsonSchema, type PlannerAction } from "@waddle/protocol";
import { normalizeActionDetailed, type ActionFormat } from "./normalize-action.js";
import { isPlannerError } from "../errors/planner-error.js";
import { salvageJsonValues } from "./salvage-json.js";
import { createSalvageNote, type SalvageNote } from "./salvage-rules.js";
import { isPlaceholderAnswer } from "./placeholders.js";

export type InterpretedReply =
  | {
      ok: true;
      action: PlannerAction;
      thought?: string;
      rewrites: readonly string[];
      /** The reply was exactly a unified action (clean JSON, nothing rewritten): it can be echoed as is. */
      verbatim: boolean;
      /** What was recovered without asking again (empty for a clean reply): one `action_salvaged` each. */
      notes: readonly SalvageNote[];
      /** Other actions the reply held: offered back to the model in the next observation, never run. */
      alternates?: PlannerAction[];
      /** Parallel steps dropped as malformed: offered back in the step's observation. */
      droppedSteps?: unknown[];
    }
  | { ok: false; code: string; message: string };

/** An arg-fill request the reply answers: the tool, the args so far, the fields asked for. */
export interface ArgFillRequest {
  node: string;
  args: Record<string, unknown>;
  missing?: readonly string[];
  /** The tool's args schema: XML-tagged values are typed by it. */
  argsSchema?: JsonSchema;
}

export interface InterpretOptions {
  format: ActionFormat;
  toolNames: ReadonlySet<string>;
  /** Set when the reply answers an arg-fill request: a bare object (or XML tags) fills the missing fields. */
  argFill?: ArgFillRequest;
  /** The client's `LlmResult.finishReason`: `length` means the reply was cut off at the token limit. */
  finishReason?: string | undefined;
}

const TRUNCATED_MESSAGE =
  "The reply stopped at the output token limit (finish_reason length), so it may be cut short and none " +
  "of it was run. Send the whole action again, shorter: brief args, and a final answer that fits.";

/**
 * Turns an LLM reply into an action through `normalizeAction`. After an arg-fill request, a reply that is
 * not an action but an object of fields is merged into the args that were missing them. A reply cut off
 * (`finishReason` `length`, or ending inside its object) is refused with `truncated_reply`.
 */
export function interpretReply(content: string, options: InterpretOptions): InterpretedReply {
  // A reply cut off at the token limit is repaired, never run: even JSON that happens to parse may end
  // early (a final answer cut mid-sentence) — docs/normalization.md.
  if (options.finishReason === "length")
    return { ok: false, code: "truncated_reply", message: TRUNCATED_MESSAGE };
  if (options.argFill !== undefined) {
    const filled = mergeArgFill(content, options.argFill);
    if (filled !== undefined) return filled;
  }
  try {
    // `options` is a NormalizeActionOptions too (`argFill` is ignored there): no copy per reply.
    const normalized = normalizeActionDetailed(content, options);
    const out: InterpretedReply = {
      ok: true,
      action: normalized.action,
      rewrites: normalized.rewrites,
      verbatim: normalized.salvage === "direct" && normalized.notes.length === 0,
      notes: normalized.notes,
    };
    if (normalized.thought !== undefined) out.thought = normalized.thought;
    if (normalized.alternates !== undefined) out.alternates = normalized.alternates;
    if (normalized.droppedSteps !== undefined) out.droppedSteps = normalized.droppedSteps;
    return out;
  } catch (error) {
    if (!isPlannerError(error)) throw error;
    // A final answer whose own string is whole, in a reply broken elsewhere (docs/normalization.md).
    const answer = error.code === "truncated_reply" ? undefined : extractCompleteAnswer(content);
    if (answer !== undefined) {
      return {
        ok: true,
        action: { next_node: "final_response", args: { answer } },
        rewrites: ["answer_string"],
        verbatim: false,
        notes: [createSalvageNote("answer_string")],
      };
    }
    return { ok: false, code: error.code, message: error.message };
  }
}

const TERMINAL_NODE =
  /"next_node"\s*:\s*(?:null|"(?:final_response|finish|final|final_answer|respond|answer)")/i;
const ANSWER_START = /"(?:answer|raw_answer)"\s*:\s*"/;

/**
 * The answer of a reply that says `final_response` (or legacy `null`) but is not valid JSON elsewhere
 * (`"sources": [}`): only when its answer string is whole, that is closed by a quote that a comma and
 * another key, or a closing brace, follow. A string that runs to the end of the reply was cut off: none.
 */
export function extractCompleteAnswer(content: string): string | undefined {
  if (!TERMINAL_NODE.test(content)) return undefined;
  const start = ANSWER_START.exec(content);
  if (start === null) return undefined;
  const from = start.index + start[0].length;
  for (let index = from; index < content.length; index += 1) {
    const char = content[index];
    if (char === "\\") {
      index += 1;
      continue;
    }
    if (char !== '"') continue;
    const rest = content.slice(index + 1, index + 40);
    if (!/^\s*(?:\}|,\s*"[A-Za-z_]+"\s*:)/.test(rest)) continue;
    const parsed = parseJson(`"${content.slice(from, index).replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`);
    const text = parsed.ok && typeof parsed.value === "string" ? parsed.value : content.slice(from, index);
    return text.trim().length > 0 && !isPlaceholderAnswer(text) ? text : undefined;
  }
  return undefined;
}

/**
 * An arg-fill reply as the call it completes: a bare object of fields, `{"args": {…}}`, or XML-tagged
 * values (`<intent>docs</intent>`) merged into the args so far. A whole action is left to normalization;
 * undefined when the reply holds neither (prose), so that it is judged as an action.
 */
function mergeArgFill(content: string, fill: ArgFillRequest): InterpretedReply | undefined {
  const object = salvageJsonValues(content)
    // Fields cut off mid-value are not fields: a truncated reply goes on to normalizeAction's refusal.
    .filter((candidate) => candidate.path !== "truncated")
    .map((candidate) => candidate.value)
    .find(
      (value): value is Record<string, unknown> =>
        typeof value === "object" && value !== null && !Array.isArray(value),
    );
  if (object !== undefined) {
    if ("next_node" in object || "thought" in object || "plan" in object) return undefined;
    const fields = isRecord(object.args) && Object.keys(object).length === 1 ? object.args : object;
    return filledReply(fill, fields, []);
  }
  const tagged = readXmlFields(content, fill);
  if (tagged === undefined) return undefined;
  return filledReply(fill, tagged, [
    createSalvageNote("arg_fill_xml", `XML-tagged values were read: ${Object.keys(tagged).join(", ")}`),
  ]);
}

function filledReply(
  fill: ArgFillRequest,
  fields: Record<string, unknown>,
  notes: SalvageNote[],
): InterpretedReply {
  return {
    ok: true,
    action: { next_node: fill.node, args: { ...fill.args, ...fields } },
    rewrites: ["arg_fill", ...notes.map((note) => note.rule)],
    verbatim: false,
    notes,
  };
}

const XML_FIELD = /<([A-Za-z_][\w.-]*)>([\s\S]*?)<\/\1>/g;

/** `<field>value</field>` pairs for the tool's fields (the ones asked for, or any of its args). */
function readXmlFields(content: string, fill: ArgFillRequest): Record<string, unknown> | undefined {
  const properties = (fill.argsSchema as { properties?: Record<string, { type?: unknown }> } | undefined)
    ?.properties;
  const wanted = new Set([...(fill.missing ?? []), ...Object.keys(properties ?? {})]);
  let fields: Record<string, unknown> | undefined;
  for (const match of content.matchAll(XML_FIELD)) {
    const name = match[1] ?? "";
    if (!wanted.has(name)) continue;
    const type = properties?.[name]?.type;
    (fields ??= {})[name] = typeXmlValue((match[2] ?? "").trim(), Array.isArray(type) ? type[0] : type);
  }
  return fields;
}

/** A tagged value as the field's type: numbers, booleans and JSON arrays/objects parsed, text kept. */
function typeXmlValue(text: string, type: unknown): unknown {
  if (type === "string" || type === undefined) return text;
  if (type === "integer" || type === "number") {
    const number = Number(text);
    return text.length > 0 && Number.isFinite(number) ? number : text;
  }
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : text;
  const parsed = salvageJsonValues(text)[0];
  return parsed === undefined || parsed.path === "truncated" ? text : parsed.value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
