import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResumeInput } from "@waddle/planner";
import { parseJson, protoSafeReviver } from "@waddle/protocol";
import type { SecretRedactor } from "../secrets/secret-redactor.js";

type Content = NonNullable<ElicitResult["content"]>;
type FieldSchema = ElicitRequestFormParams["requestedSchema"]["properties"][string];

/**
 * One MCP call's elicitations (`elicitation/create`) as Waddle pauses. Waddle cannot keep a call open while
 * a person takes their time (the run is saved and may resume on another worker), so:
 *
 * 1. The first elicitation of a call sets `pending` (the pause payload): the runner cancels the call and
 *    pauses the run with `await_input`.
 * 2. The person resumes with `approve` and `userInput`: a JSON object of the requested fields, or the value
 *    itself when the form has one field. (`reject` declines: the planner records it, the call is not made.)
 * 3. The call is made again, and its first elicitation is answered with the person's answer (`accept`). An
 *    answer that does not fit the form pauses again, saying what is wrong.
 *
 * Only one elicitation per call is answered by a person; a second one in the same call is declined, since
 * its answer could not be carried to the call made again after a second pause.
 */
export class McpElicitation {
  /** The pause payload, once an elicitation waits for a person. */
  pending: Record<string, unknown> | undefined;
  readonly #where: { server: string; tool: string };
  readonly #resumeInput: ToolResumeInput | undefined;
  readonly #redactor: SecretRedactor;
  #asked = 0;

  constructor(options: {
    server: string;
    tool: string;
    resumeInput: ToolResumeInput | undefined;
    redactor: SecretRedactor;
  }) {
    this.#where = { server: options.server, tool: options.tool };
    this.#resumeInput = options.resumeInput;
    this.#redactor = options.redactor;
  }

  /** What to answer the server now; sets `pending` when the run must pause first. */
  answer(params: ElicitRequestFormParams): ElicitResult {
    this.#asked += 1;
    if (this.pending !== undefined || this.#asked > 1) return { action: "decline" };
    const resume = this.#resumeInput;
    if (resume === undefined || resume.decision === "reject") {
      this.pending = this.#toPayload(params);
      return { action: "cancel" };
    }
    const read = readAnswer(resume.userInput, params.requestedSchema);
    if (!read.ok) {
      this.pending = this.#toPayload(params, read.problem);
      return { action: "cancel" };
    }
    return { action: "accept", content: read.content };
  }

  #toPayload(params: ElicitRequestFormParams, problem?: string): Record<string, unknown> {
    const fields = Object.keys(params.requestedSchema.properties);
    return {
      kind: "mcp_elicitation",
      ...this.#where,
      message: this.#redactor.redactText(params.message.slice(0, 4_000)),
      requestedSchema: params.requestedSchema,
      howToAnswer:
        fields.length === 1
          ? `Resume with "approve" and userInput: the value of "${fields[0]}" (or a JSON object); "reject" declines.`
          : `Resume with "approve" and userInput: a JSON object with ${fields.map((field) => `"${field}"`).join(", ")}; "reject" declines.`,
      ...(problem === undefined ? {} : { problem }),
    };
  }
}

/** The person's text as the form's content, checked against its fields; or what does not fit. */
export function readAnswer(
  userInput: string | undefined,
  schema: ElicitRequestFormParams["requestedSchema"],
): { ok: true; content: Content } | { ok: false; problem: string } {
  const fields = Object.entries(schema.properties);
  const text = userInput?.trim() ?? "";
  let given: Record<string, unknown> = {};
  const parsed = text.startsWith("{") ? parseJson(text, { reviver: protoSafeReviver }) : undefined;
  if (
    parsed?.ok &&
    parsed.value !== null &&
    typeof parsed.value === "object" &&
    !Array.isArray(parsed.value)
  ) {
    given = parsed.value as Record<string, unknown>;
  } else if (text.length > 0 && fields.length === 1) {
    given = { [fields[0]![0]]: text };
  } else if (text.length > 0) {
    return {
      ok: false,
      problem: `the answer must be a JSON object with ${fields.map(([name]) => `"${name}"`).join(", ")}`,
    };
  }
  const content: Content = {};
  for (const [name, field] of fields) {
    const value = given[name];
    if (value === undefined || value === "") {
      if (schema.required?.includes(name)) return { ok: false, problem: `"${name}" is required` };
      continue;
    }
    const read = readField(value, field);
    if (!read.ok) return { ok: false, problem: `"${name}" ${read.problem}` };
    content[name] = read.value;
  }
  const unknown = Object.keys(given).filter((name) => schema.properties[name] === undefined);
  if (unknown.length > 0) {
    return { ok: false, problem: `the form has no field ${unknown.map((name) => `"${name}"`).join(", ")}` };
  }
  return { ok: true, content };
}

function readField(
  value: unknown,
  field: FieldSchema,
): { ok: true; value: Content[string] } | { ok: false; problem: string } {
  const schema = field as {
    type: string;
    enum?: string[];
    oneOf?: { const: string }[];
    items?: { enum?: string[]; anyOf?: { const: string }[] };
    minimum?: number;
    maximum?: number;
  };
  switch (schema.type) {
    case "boolean": {
      if (typeof value === "boolean") return { ok: true, value };
      if (value === "true" || value === "yes") return { ok: true, value: true };
      if (value === "false" || value === "no") return { ok: true, value: false };
      return { ok: false, problem: "must be true or false" };
    }
    case "number":
    case "integer": {
      const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
      if (!Number.isFinite(number)) return { ok: false, problem: "must be a number" };
      if (schema.type === "integer" && !Number.isInteger(number))
        return { ok: false, problem: "must be a whole number" };
      if (schema.minimum !== undefined && number < schema.minimum)
        return { ok: false, problem: `must be at least ${schema.minimum}` };
      if (schema.maximum !== undefined && number > schema.maximum)
        return { ok: false, problem: `must be at most ${schema.maximum}` };
      return { ok: true, value: number };
    }
    case "array": {
      const allowed = schema.items?.enum ?? schema.items?.anyOf?.map((option) => option.const);
      const values = Array.isArray(value)
        ? value
        : typeof value === "string"
          ? value.split(",").map((part) => part.trim())
          : [];
      if (!values.every((item): item is string => typeof item === "string")) {
        return { ok: false, problem: "must be a list of strings" };
      }
      const wrong = allowed === undefined ? undefined : values.find((item) => !allowed.includes(item));
      if (wrong !== undefined)
        return { ok: false, problem: `holds "${wrong}", not one of ${allowed!.join(", ")}` };
      return { ok: true, value: values };
    }
    default: {
      if (typeof value !== "string") return { ok: false, problem: "must be text" };
      const allowed = schema.enum ?? schema.oneOf?.map((option) => option.const);
      if (allowed !== undefined && !allowed.includes(value)) {
        return { ok: false, problem: `must be one of ${allowed.join(", ")}` };
      }
      return { ok: true, value };
    }
  }
}
