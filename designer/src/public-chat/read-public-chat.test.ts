import { PublicChatConfig, PublicStreamEvent, PublicTranscript } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { readConfig, readStreamEvent, readTranscript } from "./read-public-chat.js";

/** The page's hand-written checks agree with the protocol's zod schemas on what fits and what does not. */
const CONFIGS: unknown[] = [
  {
    title: "Support",
    welcome: "Hi!",
    starters: ["Where is my order?"],
    theme: { accent: "#2563eb", logoUrl: null },
    showSteps: "names",
    maxTurns: null,
    maxMessageChars: 4000,
  },
  {
    title: "Support",
    welcome: null,
    starters: [],
    theme: { accent: null, logoUrl: null },
    showSteps: "x",
    maxTurns: null,
    maxMessageChars: 4000,
  },
  {
    title: "Support",
    welcome: null,
    starters: [1],
    theme: { accent: null, logoUrl: null },
    showSteps: "none",
    maxTurns: null,
    maxMessageChars: 4000,
  },
  {
    title: "Support",
    welcome: null,
    starters: [],
    theme: { accent: null, logoUrl: null },
    showSteps: "none",
    maxTurns: 0,
    maxMessageChars: 4000,
  },
  { title: "Support" },
  null,
];

const TRANSCRIPTS: unknown[] = [
  {
    sessionId: "ses_1",
    turnsLeft: 3,
    turns: [
      {
        runId: "run_1",
        turn: 1,
        query: "q",
        status: "finished",
        answer: "a",
        waitingFor: null,
        steps: [{ name: "lookup", status: "done", args: { id: 1 }, result: "ok" }],
        rating: "up",
      },
    ],
  },
  { sessionId: "ses_1", turnsLeft: null, turns: [] },
  { sessionId: "ses_1", turnsLeft: -1, turns: [] },
  { sessionId: "ses_1", turnsLeft: null, turns: [{ runId: "run_1", turn: 1, query: "q", status: "paused" }] },
];

const EVENTS: [string, unknown][] = [
  ["turn_started", { type: "turn_started", runId: "run_1", turn: 1 }],
  ["delta", { type: "delta", text: "Hel" }],
  ["step", { type: "step", step: { name: "lookup", status: "running" } }],
  ["waiting", { type: "waiting", message: "Waiting for a team member to approve refund" }],
  ["resumed", { type: "resumed" }],
  ["answer", { type: "answer", runId: "run_1", answer: "Done." }],
  ["error", { type: "error", code: "internal", message: "Something broke." }],
  ["done", { type: "done", status: "finished" }],
  ["delta", { type: "delta", text: 5 }],
  ["done", { type: "done", status: "over" }],
  ["step", { type: "step", step: { name: "lookup" } }],
];

describe("the page's checks of the public routes' answers", () => {
  it("take a config exactly when the protocol does", () => {
    for (const value of CONFIGS)
      expect(readConfig(value) !== null, JSON.stringify(value)).toBe(
        PublicChatConfig.safeParse(value).success,
      );
    expect(readConfig(CONFIGS[0])).toEqual(PublicChatConfig.parse(CONFIGS[0]));
  });

  it("take a transcript exactly when the protocol does", () => {
    for (const value of TRANSCRIPTS)
      expect(readTranscript(value) !== null, JSON.stringify(value)).toBe(
        PublicTranscript.safeParse(value).success,
      );
    expect(readTranscript(TRANSCRIPTS[0])).toEqual(PublicTranscript.parse(TRANSCRIPTS[0]));
  });

  it("take a stream event exactly when the protocol does, and only under its own event name", () => {
    for (const [name, value] of EVENTS) {
      const read = readStreamEvent(name, JSON.stringify(value));
      expect(read !== null, JSON.stringify(value)).toBe(PublicStreamEvent.safeParse(value).success);
      if (read) expect(read).toEqual(PublicStreamEvent.parse(value));
    }
    expect(readStreamEvent("delta", JSON.stringify({ type: "answer", runId: "r", answer: "a" }))).toBeNull();
    expect(readStreamEvent("delta", "not json")).toBeNull();
    expect(readStreamEvent("ping", JSON.stringify({ type: "ping" }))).toBeNull();
  });
});
