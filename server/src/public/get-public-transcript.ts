import type { PublicTranscript, PublicTurn, SessionRecord, ShowSteps } from "@waddle/protocol";
import type { WaddleStore } from "../store/waddle-store.js";
import { getMergeWaitingMessage, getWaitingMessage } from "./get-waiting-message.js";
import { PublicTurnMapper } from "./public-turn-mapper.js";
import { getHeld, getPublicStatus } from "./stream-public-turn.js";

/**
 * A visitor's conversation as they may see it (issue 33): each turn's query, status and answer, what it
 * waits for (in words without any tool arguments), its steps as `showSteps` allows, and their rating.
 */
export async function getPublicTranscript(options: {
  store: WaddleStore;
  record: SessionRecord;
  showSteps: ShowSteps;
  maxTurns: number | undefined;
}): Promise<PublicTranscript> {
  const { store, record, showSteps } = options;
  const ratings = await store.publicChat.ratings.getMany(record.turns.map((turn) => turn.runId));
  const turns: PublicTurn[] = [];
  for (const turn of record.turns) {
    let status = getPublicStatus(turn.status);
    let waitingFor: string | null = null;
    if (status === "waiting") {
      const pause = (await store.getRun(turn.runId))?.pause;
      waitingFor = pause ? getWaitingMessage(pause) : null;
    }
    const held = getHeld(record, turn.turn).pending;
    if (held && status !== "running") {
      status = "waiting";
      waitingFor = getMergeWaitingMessage(held.name);
    }
    turns.push({
      runId: turn.runId,
      turn: turn.turn,
      query: turn.query,
      status,
      answer: turn.answer,
      waitingFor,
      steps: showSteps === "none" ? [] : await getSteps(store, turn.runId, showSteps),
      rating: ratings.get(turn.runId)?.rating ?? null,
    });
  }
  const { maxTurns } = options;
  return {
    sessionId: record.id,
    turns,
    turnsLeft: maxTurns === undefined ? null : Math.max(0, maxTurns - record.turns.length),
  };
}

/** The steps of a turn's run, as they streamed. */
async function getSteps(store: WaddleStore, runId: string, showSteps: ShowSteps) {
  const mapper = new PublicTurnMapper(showSteps);
  for (const event of await store.listEvents(runId)) mapper.onEvent(event);
  return mapper.steps;
}
