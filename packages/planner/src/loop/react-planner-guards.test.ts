import {
  AgentSpec,
  type GuardInput,
  type PlannerFinishResult,
  type PlannerPauseResult,
} from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { isPlannerError } from "../errors/planner-error.js";
import { defineGuardCheck, type GuardCheckDefinition } from "../guards/guard-types.js";
import type { ReactPlanner } from "./react-planner.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../testing/run-harness.js";

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function paused(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerPauseResult {
  if (result.kind !== "pause") throw new Error(`expected a pause, got a finish (${result.reason})`);
  return result;
}

const SECRET_WORD = "Zanzibar";

/** Fails on any text holding the secret word, and masks it. */
const noSecretWord: GuardCheckDefinition = defineGuardCheck({
  name: "no-secret-word",
  check: (value) => {
    const text = JSON.stringify(value);
    if (!text.includes(SECRET_WORD)) return { pass: true };
    const redacted = JSON.parse(text.replaceAll(SECRET_WORD, "[word]")) as unknown;
    return { pass: false, findings: [{ kind: "secret_word", count: 1 }], redacted };
  },
});

const explodes: GuardCheckDefinition = defineGuardCheck({
  name: "explodes",
  check: () => {
    throw new Error("the checker is down");
  },
});

function createSpec(guards: GuardInput[]): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id: "guarded",
    name: "Guarded",
    planner: { maxIters: 10 },
    guards,
    tools: [
      {
        name: "lookup",
        desc: "Looks a customer up",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { id: { type: "string" } } },
        impl: { kind: "mock", output: { note: `Customer code ${SECRET_WORD}, all good.` } },
      },
      {
        name: "plain",
        desc: "Says hello",
        sideEffects: "read",
        impl: { kind: "mock", output: { note: "hello" } },
      },
    ],
  });
}

const guard = (
  on: GuardInput["on"],
  action: GuardInput["action"],
  extra: Partial<GuardInput> = {},
): GuardInput => ({
  name: `word-${on}`,
  on,
  action,
  check: { kind: "module", name: "no-secret-word" },
  ...extra,
});

function plannerFor(guards: GuardInput[], replies: Parameters<typeof createScriptedPlanner>[1]) {
  return createScriptedPlanner(createSpec(guards), replies, { guardChecks: [noSecretWord, explodes] });
}

/** Every string a run's events hold, joined: what a scan of stored events would see. */
function eventText(log: ReturnType<typeof createEventLog>): string {
  return JSON.stringify(log.events);
}

describe("guards on tool results", () => {
  it("redact: the model, the events and the outcome see the masked result only", async () => {
    const { planner, client } = plannerFor(
      [guard("tool_result", "redact")],
      [call("lookup", { id: "7" }), answer("All good.")],
    );
    const log = createEventLog();
    finished(await planner.run("check customer 7", { onEvent: log.onEvent }));
    expect(log.ofType("guard_verdict").map((event) => event.data)).toEqual([
      expect.objectContaining({
        guard: "word-tool_result",
        on: "tool_result",
        verdict: "fail",
        action: "redact",
        findings: [{ kind: "secret_word", count: 1 }],
        tool: "lookup",
        callId: "step-0",
        check: "module",
      }),
    ]);
    expect(JSON.stringify(client.calls.at(-1)!.messages)).toContain("Customer code [word]");
    expect(JSON.stringify(client.calls.at(-1)!.messages)).not.toContain(SECRET_WORD);
    expect(eventText(log)).not.toContain(SECRET_WORD);
    // The verdict comes before the tool's end, which shows the masked result.
    const types = log.types();
    expect(types.indexOf("guard_verdict")).toBeLessThan(types.indexOf("tool_end"));
  });

  it("block: the result becomes a tool error the model reads, with the guard's message", async () => {
    const { planner, client } = plannerFor(
      [guard("tool_result", "block", { message: "Customer codes may not be shown." })],
      [call("lookup", { id: "7" }), answer("I cannot show that.")],
    );
    const log = createEventLog();
    finished(await planner.run("check customer 7", { onEvent: log.onEvent }));
    expect(log.ofType("tool_error")[0]?.data.failure).toMatchObject({
      error_code: "guard_blocked",
      message: "Customer codes may not be shown.",
    });
    expect(log.ofType("tool_end")).toEqual([]);
    expect(JSON.stringify(client.calls.at(-1)!.messages)).not.toContain(SECRET_WORD);
    expect(eventText(log)).not.toContain(SECRET_WORD);
  });

  it("flag: the result passes as is and the verdict is recorded", async () => {
    const { planner, client } = plannerFor(
      [guard("tool_result", "flag")],
      [call("lookup", { id: "7" }), answer("All good.")],
    );
    const log = createEventLog();
    finished(await planner.run("check customer 7", { onEvent: log.onEvent }));
    expect(log.ofType("guard_verdict")[0]?.data).toMatchObject({ verdict: "fail", action: "flag" });
    expect(JSON.stringify(client.calls.at(-1)!.messages)).toContain(SECRET_WORD);
  });

  it("pause: the result waits for a person; approved, the model reads it", async () => {
    const { planner, client } = plannerFor(
      [guard("tool_result", "pause")],
      [call("lookup", { id: "7" }), answer("All good.")],
    );
    const log = createEventLog();
    const pause = paused(await planner.run("check customer 7", { onEvent: log.onEvent }));
    expect(pause.reason).toBe("guard");
    expect(pause.payload).toMatchObject({ guard: "word-tool_result", on: "tool_result", tool: "lookup" });
    expect(JSON.stringify(pause.payload)).not.toContain(SECRET_WORD);
    expect(eventText(log)).not.toContain(SECRET_WORD);
    finished(await planner.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }));
    expect(JSON.stringify(client.calls.at(-1)!.messages)).toContain(SECRET_WORD);
  });

  it("pause rejected: the model reads that the result was withheld", async () => {
    const { planner, client } = plannerFor(
      [guard("tool_result", "pause")],
      [call("lookup", { id: "7" }), answer("It was withheld.")],
    );
    const pause = paused(await planner.run("check customer 7"));
    finished(await planner.resume(pause.resumeToken, { decision: "reject", userInput: "not for this user" }));
    const seen = JSON.stringify(client.calls.at(-1)!.messages);
    expect(seen).toContain("guard_blocked");
    expect(seen).not.toContain(SECRET_WORD);
  });

  it("tools: a guard watches only the tools it names", async () => {
    const { planner } = plannerFor(
      [guard("tool_result", "block", { tools: ["plain"] })],
      [call("lookup", { id: "7" }), answer("All good.")],
    );
    const log = createEventLog();
    finished(await planner.run("check customer 7", { onEvent: log.onEvent }));
    expect(log.ofType("guard_verdict")).toEqual([]);
    expect(log.ofType("tool_end")).toHaveLength(1);
  });
});

describe("guards on the query", () => {
  it("redact: the run starts from the masked query", async () => {
    const { planner, client } = plannerFor([guard("input", "redact")], [answer("Noted.")]);
    const log = createEventLog();
    finished(await planner.run(`my code is ${SECRET_WORD}`, { onEvent: log.onEvent }));
    expect(log.ofType("run_started")[0]?.data.query).toBe("my code is [word]");
    expect(JSON.stringify(client.calls[0]!.messages)).not.toContain(SECRET_WORD);
    expect(eventText(log)).not.toContain(SECRET_WORD);
    expect(log.types().slice(0, 2)).toEqual(["run_started", "guard_verdict"]);
  });

  it("block: the run fails guard_blocked before any LLM call", async () => {
    const { planner, client } = plannerFor([guard("input", "block")], [answer("never")]);
    const log = createEventLog();
    const error = await planner
      .run(`my code is ${SECRET_WORD}`, { onEvent: log.onEvent })
      .catch((e: unknown) => e);
    expect(isPlannerError(error) && error.code).toBe("guard_blocked");
    expect(client.calls).toHaveLength(0);
    expect(log.ofType("run_failed")[0]?.data.error).toMatchObject({
      code: "guard_blocked",
      details: { guard: "word-input", on: "input", findings: [{ kind: "secret_word", count: 1 }] },
    });
  });

  it("pause: a person lets the query through, or stops the run", async () => {
    const { planner, client } = plannerFor([guard("input", "pause")], [answer("Done.")]);
    const pause = paused(await planner.run(`code ${SECRET_WORD}`));
    expect(client.calls).toHaveLength(0);
    expect(finished(await planner.resume(pause.resumeToken, { decision: "approve" })).payload.answer).toBe(
      "Done.",
    );
    const second = paused(await planner.run(`code ${SECRET_WORD}`));
    const error = await planner.resume(second.resumeToken, { decision: "reject" }).catch((e: unknown) => e);
    expect(isPlannerError(error) && error.code).toBe("guard_blocked");
  });
});

describe("guards on the answer", () => {
  it("holds the answer back from the stream until it passed, then masks it", async () => {
    const { planner } = plannerFor([guard("output", "redact")], [answer(`The code is ${SECRET_WORD}.`)]);
    const log = createEventLog();
    const result = finished(await planner.run("what is the code?", { onEvent: log.onEvent }));
    expect(result.payload.answer).toBe("The code is [word].");
    expect(log.ofType("llm_stream_chunk").filter((event) => event.data.phase === "answer")).toEqual([]);
    expect(eventText(log).replace(JSON.stringify(result.payload), "")).not.toContain("The code is");
    const types = log.types();
    expect(types.slice(-3)).toEqual(["guard_checking", "guard_verdict", "run_finished"]);
    expect(log.ofType("guard_checking")[0]?.data).toEqual({ on: "output", guards: ["word-output"] });
  });

  it("streams the answer as before when no output guard is set", async () => {
    const { planner } = plannerFor([guard("tool_result", "redact")], [answer("Plain answer.")]);
    const log = createEventLog();
    finished(await planner.run("hi", { onEvent: log.onEvent }));
    const streamed = log.ofType("llm_stream_chunk").filter((event) => event.data.phase === "answer");
    expect(streamed.map((event) => event.data.text).join("")).toBe("Plain answer.");
  });

  it("block: the answer never reaches the caller, not even in pieces", async () => {
    const { planner } = plannerFor([guard("output", "block")], [answer(`The code is ${SECRET_WORD}.`)]);
    const log = createEventLog();
    const error = await planner.run("what is the code?", { onEvent: log.onEvent }).catch((e: unknown) => e);
    expect(isPlannerError(error) && error.code).toBe("guard_blocked");
    expect(eventText(log)).not.toContain(SECRET_WORD);
    expect(eventText(log)).not.toContain("The code is");
  });

  it("pause: approved, the held answer finishes the run", async () => {
    const { planner } = plannerFor([guard("output", "pause")], [answer(`The code is ${SECRET_WORD}.`)]);
    const log = createEventLog();
    const pause = paused(await planner.run("what is the code?", { onEvent: log.onEvent }));
    expect(pause.payload).toMatchObject({ guard: "word-output", on: "output" });
    expect(eventText(log)).not.toContain(SECRET_WORD);
    const result = finished(await planner.resume(pause.resumeToken, { decision: "approve" }));
    expect(result.payload.answer).toBe(`The code is ${SECRET_WORD}.`);
  });

  it("checks a structured answer's object and keeps it an object when masked", async () => {
    const spec = AgentSpec.parse({
      ...createSpec([guard("output", "redact")]),
      answerSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
    });
    const { planner } = createScriptedPlanner(spec, [answer(JSON.stringify({ code: SECRET_WORD }))], {
      guardChecks: [noSecretWord],
    });
    const result = finished(await planner.run("code?"));
    expect(result.payload.data).toEqual({ code: "[word]" });
    expect(JSON.parse(result.payload.answer)).toEqual({ code: "[word]" });
  });
});

describe("guards that cannot check", () => {
  it("a throwing check blocks (fail closed) and says so", async () => {
    const { planner } = plannerFor(
      [{ name: "down", on: "tool_result", action: "flag", check: { kind: "module", name: "explodes" } }],
      [call("lookup", { id: "7" }), answer("ok")],
    );
    const log = createEventLog();
    finished(await planner.run("check 7", { onEvent: log.onEvent }));
    expect(log.ofType("guard_verdict")[0]?.data).toMatchObject({ verdict: "error", action: "block" });
    expect(log.ofType("tool_error")[0]?.data.failure.message).toContain("fail closed");
  });

  it('onError "allow" lets the text pass and records the error', async () => {
    const { planner, client } = plannerFor(
      [
        {
          name: "down",
          on: "tool_result",
          action: "block",
          onError: "allow",
          check: { kind: "module", name: "explodes" },
        },
      ],
      [call("lookup", { id: "7" }), answer("ok")],
    );
    const log = createEventLog();
    finished(await planner.run("check 7", { onEvent: log.onEvent }));
    expect(log.ofType("guard_verdict")[0]?.data).toMatchObject({ verdict: "error", action: "allow" });
    expect(JSON.stringify(client.calls.at(-1)!.messages)).toContain(SECRET_WORD);
  });

  it("an unknown module check is an error verdict that blocks", async () => {
    const { planner } = plannerFor(
      [{ name: "ghost", on: "input", action: "flag", check: { kind: "module", name: "nowhere" } }],
      [answer("never")],
    );
    const error = await planner.run("hi").catch((e: unknown) => e);
    expect(isPlannerError(error) && error.code).toBe("guard_blocked");
    expect(String((error as Error).message)).toContain('No module check "nowhere"');
  });

  it("a check past its time limit blocks", async () => {
    const slow = defineGuardCheck({
      name: "slow",
      check: (_value, context) =>
        new Promise((_, reject) =>
          context.signal.addEventListener("abort", () => reject(new Error("gave up"))),
        ),
    });
    const { planner } = createScriptedPlanner(
      createSpec([
        { name: "slow", on: "input", action: "flag", timeoutMs: 5, check: { kind: "module", name: "slow" } },
      ]),
      [answer("never")],
      { guardChecks: [slow] },
    );
    const log = createEventLog();
    await planner.run("hi", { onEvent: log.onEvent }).catch(() => undefined);
    expect(log.ofType("guard_verdict")[0]?.data).toMatchObject({ verdict: "error", action: "block" });
    expect(log.ofType("guard_verdict")[0]?.data.message).toContain("limit of 5 ms");
  });
});

describe("built-in checks in a run", () => {
  it("max_length redacts by cutting, json_schema blocks an answer of the wrong shape", async () => {
    const { planner } = plannerFor(
      [
        { name: "short", on: "tool_result", action: "redact", check: { kind: "max_length", chars: 12 } },
        {
          name: "shape",
          on: "output",
          action: "block",
          check: { kind: "json_schema", schema: { type: "object", required: ["ok"] } },
        },
      ],
      [call("lookup", { id: "7" }), answer("not json")],
    );
    const log = createEventLog();
    const error = await planner.run("check 7", { onEvent: log.onEvent }).catch((e: unknown) => e);
    expect(isPlannerError(error) && error.code).toBe("guard_blocked");
    expect(
      log.ofType("guard_verdict").map((event) => [event.data.guard, event.data.verdict, event.data.findings]),
    ).toEqual([
      ["short", "fail", [{ kind: "too_long", count: 1 }]],
      ["shape", "fail", [{ kind: "not_json", count: 1 }]],
    ]);
  });

  it("an llm check asks the judge, which answers pass or fail", async () => {
    const { planner, client } = plannerFor(
      [
        {
          name: "polite",
          on: "output",
          action: "block",
          check: { kind: "llm", prompt: "Fail rude answers." },
        },
      ],
      [answer("Go away."), JSON.stringify({ verdict: "fail", reason: "The answer is rude." })],
    );
    const log = createEventLog();
    const error = await planner.run("hi", { onEvent: log.onEvent }).catch((e: unknown) => e);
    expect(isPlannerError(error) && error.code).toBe("guard_blocked");
    expect((error as Error).message).toBe("The answer is rude.");
    // The judge's call is the run's cost too: counted, and shown as an llm_call of purpose guard.
    expect(log.ofType("llm_call").map((event) => event.data.purpose)).toEqual(["plan", "guard"]);
    expect(JSON.stringify(client.calls.at(-1)!.messages)).toContain("Fail rude answers.");
  });
});

describe("the pii check in a run", () => {
  it("an email and a card number in a tool result reach the model masked, and no event holds them", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "pii",
      name: "PII",
      guards: [{ name: "pii", on: "tool_result", action: "redact", check: { kind: "pii" } }],
      tools: [
        {
          name: "crm",
          desc: "Finds a contact",
          impl: { kind: "mock", output: { contact: "Ana, ana.lopez@example.com, card 4111 1111 1111 1111" } },
        },
      ],
    });
    const { planner, client } = createScriptedPlanner(spec, [call("crm"), answer("Found Ana.")]);
    const log = createEventLog();
    finished(await planner.run("find Ana", { onEvent: log.onEvent }));
    const seen = JSON.stringify(client.calls.at(-1)!.messages);
    expect(seen).toContain("Ana, [email], card [card]");
    for (const text of [seen, eventText(log)]) {
      expect(text).not.toContain("ana.lopez@example.com");
      expect(text).not.toContain("4111 1111 1111 1111");
    }
    expect(log.ofType("guard_verdict")[0]?.data.findings).toEqual(
      expect.arrayContaining([
        { kind: "email", count: 1 },
        { kind: "card", count: 1 },
      ]),
    );
  });
});
