import { ToolSpec } from "@waddle/protocol";
import type { ToolRunContext } from "@waddle/planner";
import { ScriptedClient, scriptedReply } from "@waddle/planner/testing";
import { describe, expect, it } from "vitest";
import { createLlmToolRunner, readJsonObject } from "./llm-tool.js";
import { getOfflineToolAnswer } from "./offline-tool-answer.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";

const tool = ToolSpec.parse({
  name: "classify",
  desc: "Classify a ticket",
  outSchema: {
    type: "object",
    properties: { label: { type: "string", enum: ["billing", "bug"] }, score: { type: "number" } },
    required: ["label"],
  },
  impl: { kind: "llm", prompt: "Classify: {{args.text}} (user asked: {{query}})" },
}) as Parameters<typeof createLlmToolRunner>[0]["tool"];

const reports: unknown[] = [];
const context = {
  signal: new AbortController().signal,
  query: "help with sk-secret-999999",
  attempt: 1,
  observations: { last: null, byTool: {} },
  toolContext: {},
  reportUsage: (usage: unknown) => reports.push(usage),
} as unknown as ToolRunContext;
const redactor = new SecretRedactor(["sk-secret-999999"]);

describe("llm tools", () => {
  it("reports every model call it makes as the run's usage", async () => {
    reports.length = 0;
    const llm = new ScriptedClient([
      scriptedReply('{"label": "nope"}', {
        usage: { promptTokens: 40, completionTokens: 5 },
        costUsd: 0.002,
      }),
      scriptedReply('{"label": "bug"}', { usage: { promptTokens: 60, completionTokens: 4 } }),
    ]);
    await createLlmToolRunner({ tool, llm, redactor })({ text: "crash" }, context);
    expect(reports).toEqual([
      expect.objectContaining({ purpose: "tool", promptTokens: 40, completionTokens: 5, costUsd: 0.002 }),
      expect.objectContaining({ purpose: "tool", promptTokens: 60, completionTokens: 4 }),
    ]);
  });

  it("renders the prompt without secrets and returns the validated JSON", async () => {
    const llm = new ScriptedClient(['```json\n{"label": "billing", "score": 0.9}\n```']);
    const run = createLlmToolRunner({ tool, llm, redactor });
    await expect(run({ text: "double charge" }, context)).resolves.toEqual({ label: "billing", score: 0.9 });
    const [system, user] = llm.calls[0]!.messages;
    expect(system?.content).toContain('"enum":["billing","bug"]');
    expect(user?.content).toBe("Classify: double charge (user asked: help with [redacted])");
    expect(llm.calls[0]!.responseFormat).toBe("json_object");
  });

  it("repairs once with the problem named", async () => {
    const llm = new ScriptedClient(['{"label": "refund"}', '{"label": "bug"}']);
    await expect(createLlmToolRunner({ tool, llm, redactor })({ text: "crash" }, context)).resolves.toEqual({
      label: "bug",
    });
    expect(llm.calls[1]!.messages.at(-1)?.content).toMatch(/does not fit: label/);
  });

  it("fails with invalid_llm_output after the repair", async () => {
    const llm = new ScriptedClient(["no json here", '{"score": 1}']);
    await expect(createLlmToolRunner({ tool, llm, redactor })({ text: "?" }, context)).rejects.toMatchObject({
      code: "invalid_llm_output",
    });
  });

  it("answers with a schema-shaped stand-in on the offline model", async () => {
    const llm = new ScriptedClient([], { offline: true });
    await expect(createLlmToolRunner({ tool, llm, redactor })({ text: "x" }, context)).resolves.toEqual({
      label: "billing",
    });
    expect(llm.calls).toEqual([]);
    expect(
      getOfflineToolAnswer(
        {
          type: "object",
          properties: {
            summary: { type: "string", maxLength: 40 },
            n: { type: "integer", minimum: 2 },
            tags: { type: "array", items: { type: "string" } },
          },
        },
        "Summarize   the report",
      ),
    ).toEqual({ summary: "(offline model) Summarize the report", n: 2, tags: [] });
  });

  it("reads JSON objects from fences and prose, never arrays", () => {
    expect(readJsonObject('Sure! {"a": 1} hope that helps')).toEqual({ ok: true, value: { a: 1 } });
    expect(readJsonObject("[1, 2]").ok).toBe(false);
    expect(readJsonObject('{"__proto__": {"x": 1}, "b": 2}')).toEqual({ ok: true, value: { b: 2 } });
  });
});
