import { contentToText, type Message } from "@ag-ui/core";
import { ResumeEntrySchema, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { ResumeDecision } from "@waddle/protocol";
import { z } from "zod";
import { parseRequest } from "../../http/validate-request.js";
import { ApiError } from "../../shared/api-error.js";

/** Thread and run ids as clients make them: visible ASCII, bounded (AG-UI clients send UUIDs). */
const ClientId = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, "must be 1 to 200 visible ASCII characters (a UUID is a good id)");

/** An interrupt's answer (`RESUME_PAYLOAD_SCHEMA`): `{decision?, args?, note?}`, or a string as the note. */
const ResumePayload = z
  .union([
    z.string().max(100_000),
    z.strictObject({
      decision: ResumeDecision.optional(),
      args: z.record(z.string(), z.unknown()).optional(),
      note: z.string().max(100_000).optional(),
    }),
  ])
  .nullish();

/** AG-UI's official `RunAgentInput` schema, with bounded ids and the answers Waddle's pauses take. */
const AguiInput = RunAgentInputSchema.extend({
  threadId: ClientId,
  runId: ClientId,
  resume: z
    .array(ResumeEntrySchema.extend({ payload: ResumePayload }))
    .max(10)
    .optional(),
});
export type AguiInput = z.output<typeof AguiInput>;
export type AguiResumeEntry = NonNullable<AguiInput["resume"]>[number];

/** How a resume entry answers a Waddle pause. */
export interface AguiDecision {
  decision: ResumeDecision;
  args?: Record<string, unknown>;
  userInput?: string;
}

/** The body as AG-UI's `RunAgentInput`: a misfit is a 400 `validation_failed` listing every issue. */
export function parseAguiInput(body: unknown): AguiInput {
  return parseRequest(AguiInput, body, "body");
}

/**
 * The query of a new turn: the text of the last message, which must be the user's (the thread's earlier
 * context is the Waddle session's, so earlier messages are not read again). A 400 naming `messages` when
 * there is none.
 */
export function getAguiQuery(messages: readonly Message[]): string {
  const last = messages.at(-1);
  const text = last?.role === "user" ? contentToText(last.content).trim() : "";
  if (text.length > 0) return text;
  throw new ApiError(
    "validation_failed",
    'Fix the field "messages" of the request body: its last message must be the user\'s, with text ' +
      "(or send `resume` to answer the thread's interrupt).",
    { where: "body", issues: [{ path: "$.messages", message: "must end with a user message with text" }] },
  );
}

/** A resume entry's answer: `cancelled` rejects; `resolved` approves unless its payload decides otherwise. */
export function getAguiDecision(entry: AguiResumeEntry): AguiDecision {
  if (entry.status === "cancelled") return { decision: "reject" };
  const payload = entry.payload;
  if (payload === undefined || payload === null) return { decision: "approve" };
  if (typeof payload === "string") return { decision: "approve", userInput: payload };
  return {
    decision: payload.decision ?? "approve",
    ...(payload.args ? { args: payload.args } : {}),
    ...(payload.note !== undefined ? { userInput: payload.note } : {}),
  };
}
