import { ToolSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { testToolCall } from "./test-tool-call.js";

const options = { toolRetry: { maxAttempts: 3, backoffMs: 0, maxBackoffMs: 0 }, toolTimeoutMs: 1_000 };
const textArgs = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

describe("testToolCall", () => {
  it("runs a tool through the executor: transient failures are retried under its policy", async () => {
    const tool = ToolSpec.parse({
      name: "echo",
      argsSchema: textArgs,
      outSchema: textArgs,
      impl: { kind: "mock", output: { text: "{{args.text}}!" }, failFirst: 2 },
    });
    const result = await testToolCall({ tool, args: { text: "hi" }, options });
    expect(result).toMatchObject({ ok: true, result: { text: "hi!" }, attempts: 3 });
  });

  it("refuses args that do not fit the schema, naming each issue, without calling the tool", async () => {
    let calls = 0;
    const tool = ToolSpec.parse({
      name: "echo",
      argsSchema: textArgs,
      impl: { kind: "module", ref: "echo" },
    });
    const result = await testToolCall({
      tool,
      args: { text: 3 },
      options,
      resolveImpl: () => () => {
        calls += 1;
        return Promise.resolve({});
      },
    });
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: "invalid_args" } });
    expect(!result.ok && result.error.issues?.[0]?.path).toBe("text");
    expect(calls).toBe(0);
  });

  it("reports the tool's own timeout as the run would", async () => {
    const tool = ToolSpec.parse({
      name: "slow",
      timeoutMs: 20,
      retry: { maxAttempts: 1 },
      impl: { kind: "http", url: "https://example.com" },
    });
    const result = await testToolCall({
      tool,
      args: {},
      options,
      resolveImpl: () => () => new Promise(() => undefined),
    });
    expect(result).toMatchObject({ ok: false, error: { code: "timeout" }, attempts: 1 });
  });
});
