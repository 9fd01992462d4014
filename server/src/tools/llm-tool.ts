import { parseJson, protoSafeReviver, renderTemplate, type LlmImpl, type ToolSpec } from "@waddle/protocol";
import type { LlmClient, LlmMessage, ToolRunner } from "@waddle/planner";
import { z } from "zod";
import { getOfflineToolAnswer } from "./offline-tool-answer.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "./tool-execution-error.js";

export interface LlmToolOptions {
  tool: ToolSpec & { impl: z.output<typeof LlmImpl> };
  llm: LlmClient;
  redactor: SecretRedactor;
}

/** The first JSON object in a reply, also inside a code fence or prose; undefined when there is none. */
export function readJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1] ?? text;
  const start = fenced.indexOf("{");
  const end = fenced.lastIndexOf("}");
  if (start < 0 || end <= start) return { ok: false, message: "the reply holds no JSON object" };
  const parsed = parseJson(fenced.slice(start, end + 1), { reviver: protoSafeReviver });
  if (!parsed.ok) return { ok: false, message: `the JSON does not parse (${parsed.error})` };
  if (parsed.value === null || typeof parsed.value !== "object" || Array.isArray(parsed.value)) {
    return { ok: false, message: "the reply is not a JSON object" };
  }
  return { ok: true, value: parsed.value as Record<string, unknown> };
}

/**
 * Runs an `llm` tool: renders the prompt with `{{args.*}}`, `{{query}}`, `{{last}}` and `{{steps.*}}`,
 * asks for one JSON object matching the tool's out schema, validates it, and asks once more with the
 * problem named when the first answer does not fit. On the offline model the answer is a deterministic value
 * shaped by the out schema (see `getOfflineToolAnswer`).
 */
export function createLlmToolRunner(options: LlmToolOptions): ToolRunner {
  const { tool, llm, redactor } = options;
  const outSchema = z.fromJSONSchema(tool.outSchema as Parameters<typeof z.fromJSONSchema>[0]);
  const system =
    `You are the tool "${tool.name}"${tool.desc ? `: ${tool.desc}` : ""}.\n` +
    "Reply with exactly one JSON object and nothing else (no prose, no code fence). It must match this JSON Schema:\n" +
    JSON.stringify(tool.outSchema);
  return async (args, context) => {
    const rendered = renderTemplate(tool.impl.prompt, {
      args,
      query: context.query,
      last: context.observations.last,
      steps: context.observations.byTool,
      call: context.attempt,
    });
    const prompt = redactor.redactText(typeof rendered === "string" ? rendered : JSON.stringify(rendered));
    const messages: LlmMessage[] = [
      { role: "system", content: system },
      { role: "user", content: prompt },
    ];
    if (llm.offline) {
      // The offline model plans; it cannot write an answer. A schema-shaped stand-in keeps the run going.
      const answer = outSchema.safeParse(getOfflineToolAnswer(tool.outSchema, prompt));
      if (answer.success) return answer.data;
      throw new ToolExecutionError(
        "invalid_llm_output",
        `${tool.name} needs a real model: the offline model cannot fill its out schema. Set OPENAI_API_KEY and use provider "openai".`,
      );
    }
    let problem = "";
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const startedAt = Date.now();
      const result = await llm.complete({
        messages,
        responseFormat: "json_object",
        signal: context.signal,
        purpose: "tool",
      });
      // The call is the run's cost too: count it against the run's usage and budgets, even unmetered.
      context.reportUsage({
        provider: llm.provider,
        model: result.model ?? llm.model,
        promptTokens: result.usage?.promptTokens ?? 0,
        completionTokens: result.usage?.completionTokens ?? 0,
        reasoningTokens: result.usage?.reasoningTokens,
        costUsd: result.costUsd,
        latencyMs: Date.now() - startedAt,
        purpose: "tool",
        finishReason: result.finishReason,
      });
      const read = readJsonObject(result.content);
      const checked = read.ok ? outSchema.safeParse(read.value) : undefined;
      if (checked?.success) return checked.data;
      problem = read.ok
        ? (checked?.error.issues
            .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
            .join("; ") ?? "")
        : read.message;
      messages.push(
        { role: "assistant", content: result.content },
        {
          role: "user",
          content: `That reply does not fit: ${problem}. Reply again with only the corrected JSON object.`,
        },
      );
    }
    throw new ToolExecutionError(
      "invalid_llm_output",
      `The LLM's answer for ${tool.name} does not match its out schema after one repair: ${problem}`,
      true,
    );
  };
}
