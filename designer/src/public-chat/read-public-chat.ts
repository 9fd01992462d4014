import type {
  PublicChatConfig,
  PublicSessionCreated,
  PublicStep,
  PublicStreamEvent,
  PublicTranscript,
  PublicTurn,
} from "@waddle/protocol";

/**
 * Checks of what the public routes answer, written by hand against the protocol's types: the page's budget
 * is a few kilobytes, and zod would be most of it. Each returns the value typed, or null when it does not
 * fit (the page then says the server answered something it does not understand).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isStringOrNull = (value: unknown): value is string | null => value === null || isString(value);
const isPositiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

const SHOW_STEPS = new Set(["none", "names", "full"]);
const TURN_STATUSES = new Set(["running", "waiting", "finished", "failed"]);
const STEP_STATUSES = new Set(["running", "done", "failed"]);

/** JSON text to a value, or undefined when it is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function readConfig(value: unknown): PublicChatConfig | null {
  if (!isObject(value) || !isString(value.title) || !isStringOrNull(value.welcome)) return null;
  if (!isStringArray(value.starters) || !isObject(value.theme)) return null;
  const { accent, logoUrl } = value.theme;
  if (!isStringOrNull(accent) || !isStringOrNull(logoUrl)) return null;
  if (!isString(value.showSteps) || !SHOW_STEPS.has(value.showSteps)) return null;
  if (value.maxTurns !== null && !isPositiveInt(value.maxTurns)) return null;
  if (!isPositiveInt(value.maxMessageChars)) return null;
  return {
    title: value.title,
    welcome: value.welcome,
    starters: value.starters,
    theme: { accent, logoUrl },
    showSteps: value.showSteps as PublicChatConfig["showSteps"],
    maxTurns: value.maxTurns,
    maxMessageChars: value.maxMessageChars,
  };
}

export function readSessionCreated(value: unknown): PublicSessionCreated | null {
  if (!isObject(value) || !isString(value.sessionId) || !isString(value.visitorToken)) return null;
  return { sessionId: value.sessionId, visitorToken: value.visitorToken };
}

export function readStep(value: unknown): PublicStep | null {
  if (!isObject(value) || !isString(value.name)) return null;
  if (!isString(value.status) || !STEP_STATUSES.has(value.status)) return null;
  return {
    name: value.name,
    status: value.status as PublicStep["status"],
    ...("args" in value ? { args: value.args } : {}),
    ...("result" in value ? { result: value.result } : {}),
  };
}

const isTurnStatus = (value: unknown): value is PublicTurn["status"] =>
  isString(value) && TURN_STATUSES.has(value);

function readTurn(value: unknown): PublicTurn | null {
  if (!isObject(value) || !isString(value.runId) || !isPositiveInt(value.turn)) return null;
  if (!isString(value.query) || !isTurnStatus(value.status)) return null;
  if (!isStringOrNull(value.answer) || !isStringOrNull(value.waitingFor)) return null;
  if (value.rating !== null && value.rating !== "up" && value.rating !== "down") return null;
  if (!Array.isArray(value.steps)) return null;
  const steps = value.steps.map(readStep);
  if (steps.some((step) => step === null)) return null;
  return {
    runId: value.runId,
    turn: value.turn,
    query: value.query,
    status: value.status,
    answer: value.answer,
    waitingFor: value.waitingFor,
    steps: steps as PublicStep[],
    rating: value.rating,
  };
}

export function readTranscript(value: unknown): PublicTranscript | null {
  if (!isObject(value) || !isString(value.sessionId) || !Array.isArray(value.turns)) return null;
  const { turnsLeft } = value;
  if (turnsLeft !== null && !(Number.isInteger(turnsLeft) && (turnsLeft as number) >= 0)) return null;
  const turns = value.turns.map(readTurn);
  if (turns.some((turn) => turn === null)) return null;
  return { sessionId: value.sessionId, turns: turns as PublicTurn[], turnsLeft: turnsLeft as number | null };
}

/** One SSE message of a turn's stream: its `event:` must agree with the `type` inside its data. */
export function readStreamEvent(event: string, data: string): PublicStreamEvent | null {
  const value = parseJsonText(data);
  if (!isObject(value) || value.type !== event) return null;
  switch (value.type) {
    case "turn_started":
      return isString(value.runId) && isPositiveInt(value.turn)
        ? { type: "turn_started", runId: value.runId, turn: value.turn }
        : null;
    case "delta":
      return isString(value.text) ? { type: "delta", text: value.text } : null;
    case "step": {
      const step = readStep(value.step);
      return step ? { type: "step", step } : null;
    }
    case "waiting":
      return isString(value.message) ? { type: "waiting", message: value.message } : null;
    case "resumed":
      return { type: "resumed" };
    case "answer":
      return isString(value.runId) && isString(value.answer)
        ? { type: "answer", runId: value.runId, answer: value.answer }
        : null;
    case "error":
      return isString(value.code) && isString(value.message)
        ? { type: "error", code: value.code, message: value.message }
        : null;
    case "done":
      return isTurnStatus(value.status) ? { type: "done", status: value.status } : null;
    default:
      return null;
  }
}
