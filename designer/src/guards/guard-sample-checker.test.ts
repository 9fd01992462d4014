import type { GuardSampleRequest, GuardSampleResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.js";
import { createGuardSampleChecker, type GuardSampleState } from "./guard-sample-checker.js";

/** The server's side, answered by hand: each request waits until the test resolves or rejects it. */
function createServer() {
  const requests: {
    body: GuardSampleRequest;
    resolve: (result: GuardSampleResult) => void;
    reject: (error: unknown) => void;
  }[] = [];
  return {
    requests,
    api: {
      checkGuardSample: (body: GuardSampleRequest) =>
        new Promise<GuardSampleResult>((resolve, reject) => requests.push({ body, resolve, reject })),
    },
  };
}

/** Timers fired by the test. */
function createTimers() {
  const pending: { run: () => void; delayMs: number; cancelled: boolean }[] = [];
  return {
    pending: () => pending.filter((timer) => !timer.cancelled),
    setTimer: (run: () => void, delayMs: number) => {
      const timer = { run, delayMs, cancelled: false };
      pending.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    fire() {
      for (const timer of pending.splice(0)) if (!timer.cancelled) timer.run();
    },
  };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const pii = { kind: "pii" as const };
const found: GuardSampleResult = {
  verdict: "fail",
  findings: [
    { kind: "email", count: 1 },
    { kind: "card", count: 1 },
  ],
  redacted: "Reach Ana at [email], card [card]",
  durationMs: 0.3,
};

function setup() {
  const server = createServer();
  const timers = createTimers();
  const states: GuardSampleState[] = [];
  const checker = createGuardSampleChecker({
    api: server.api,
    onChange: (state) => states.push(state),
    setTimer: timers.setTimer,
  });
  return { server, timers, states, checker };
}

describe("the guard sample checker", () => {
  it("checks once typing pauses, with the last text only, and shows the verdict", async () => {
    const { server, timers, states, checker } = setup();
    checker.request({ check: pii, text: "Reach Ana", agentId: "desk" });
    checker.request({
      check: pii,
      text: "Reach Ana at ana@example.com, card 4111 1111 1111 1111",
      agentId: "desk",
    });
    expect(timers.pending()).toHaveLength(1);
    expect(timers.pending()[0]?.delayMs).toBe(300);
    expect(server.requests).toHaveLength(0);
    timers.fire();
    expect(server.requests.map((request) => request.body)).toEqual([
      { check: pii, text: "Reach Ana at ana@example.com, card 4111 1111 1111 1111", agentId: "desk" },
    ]);
    expect(states.at(-1)?.status).toBe("checking");
    server.requests[0]!.resolve(found);
    await flush();
    expect(states.at(-1)).toEqual({ status: "done", result: found, error: null });
  });

  it("drops an answer that arrives after a newer request, and keeps the last result while checking", async () => {
    const { server, timers, states, checker } = setup();
    checker.request({ check: pii, text: "first" });
    timers.fire();
    checker.request({ check: pii, text: "second" });
    timers.fire();
    server.requests[1]!.resolve(found);
    await flush();
    server.requests[0]!.resolve({ verdict: "pass", findings: [], durationMs: 0.1 });
    await flush();
    expect(states.at(-1)?.result).toBe(found);
    checker.request({ check: pii, text: "third" });
    expect(states.at(-1)).toEqual({ status: "checking", result: found, error: null });
  });

  it("clears on an empty text, says why a check was refused, and stays quiet once disposed", async () => {
    const { server, timers, states, checker } = setup();
    checker.request({ check: pii, text: "x" });
    checker.request({ check: pii, text: "" });
    expect(timers.pending()).toHaveLength(0);
    expect(states.at(-1)).toEqual({ status: "idle", result: null, error: null });
    checker.request({ check: { kind: "deny_words", words: ["("], regex: true }, text: "x" });
    timers.fire();
    server.requests[0]!.reject(
      new ApiError("validation_failed", "check.words[0] is not a valid regular expression", 400),
    );
    await flush();
    expect(states.at(-1)).toEqual({
      status: "failed",
      result: null,
      error: "check.words[0] is not a valid regular expression",
    });
    checker.request({ check: pii, text: "y" });
    checker.dispose();
    const seen = states.length;
    timers.fire();
    expect(server.requests).toHaveLength(1);
    expect(states).toHaveLength(seen);
  });
});
