import type { PublicChatConfig, PublicStreamEvent, PublicTranscript, Rating } from "@waddle/protocol";
import {
  applyStreamEvent,
  createSendingTurn,
  getTurnFromTranscript,
  isTurnLive,
  type ChatTurn,
} from "./apply-stream-event.js";
import { ChatApiError, type ChatApi } from "./chat-api.js";
import { createChatShell } from "./chat-shell.js";
import { createComposer } from "./composer.js";
import { describeChatError } from "./describe-chat-error.js";
import { createTurnView, type TurnView } from "./turn-view.js";
import type { VisitorState, VisitorStorage } from "./visitor-storage.js";

interface Entry {
  turn: ChatTurn;
  view: TurnView;
  /** The conversation the turn belongs to (feedback goes there). */
  sessionId: string;
}

/** How often the page tries to pick a dropped stream up again before it says so. */
const RECOVER_ATTEMPTS = 5;
const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/**
 * The chat page's controller: the visitor and conversation kept in storage, sending a message and folding
 * its streamed events into the turn shown, picking a running turn up again after a reload or a dropped
 * connection, New conversation, ratings, and problems said plainly.
 */
export function startChatApp(options: {
  mount: HTMLElement;
  api: ChatApi;
  storage: VisitorStorage;
  config: PublicChatConfig;
  /** In the embed's panel: the header's close button asks the outer page to close it. */
  onClose: (() => void) | null;
}): { focus(): void } {
  const { api, storage, config } = options;
  let visitor: VisitorState | null = storage.load();
  let entries: Entry[] = [];
  let abort = new AbortController();

  const shell = createChatShell(config, { onStarter: (text) => void send(text), onClose: options.onClose });
  const composer = createComposer({ maxChars: config.maxMessageChars, onSend: (text) => void send(text) });
  shell.composerSlot.append(composer.element);
  options.mount.replaceChildren(shell.root);

  const showIntro = () => {
    shell.intro.hidden = entries.length > 0 && config.welcome === null;
    shell.starters.hidden = entries.length > 0 || config.starters.length === 0;
  };
  const refreshBusy = () => composer.setBusy(entries.some((entry) => isTurnLive(entry.turn)));
  const problem = (error: unknown) =>
    shell.showProblem(describeChatError(error, { maxMessageChars: config.maxMessageChars }), newConversation);

  const rate = async (sessionId: string, runId: string, rating: Rating, comment?: string) => {
    if (!visitor) throw new Error("Send a message first.");
    try {
      await api.sendFeedback(sessionId, visitor.visitorToken, {
        runId,
        rating,
        ...(comment ? { comment } : {}),
      });
    } catch (error) {
      throw new Error(describeChatError(error).text, { cause: error });
    }
  };

  const addEntry = (turn: ChatTurn, sessionId: string): Entry => {
    const view = createTurnView(turn, {
      showSteps: config.showSteps,
      onRate: (runId, rating, comment) => rate(sessionId, runId, rating, comment),
    });
    const entry = { turn, view, sessionId };
    entries.push(entry);
    shell.log.append(view.element);
    showIntro();
    return entry;
  };
  // A burst of events (a followed turn replays from its start) renders once per frame, not once per event.
  const dirty = new Set<Entry>();
  let frame: number | null = null;
  const render = () => {
    frame = null;
    for (const entry of dirty) entry.view.update(entry.turn);
    dirty.clear();
    shell.scrollToEnd();
  };
  const setTurn = (entry: Entry, turn: ChatTurn) => {
    const wasLive = isTurnLive(entry.turn);
    entry.turn = turn;
    dirty.add(entry);
    // The end of a turn shows at once (Send comes back with it); pieces of an answer wait for the frame.
    if (wasLive !== isTurnLive(turn)) render();
    else frame ??= window.requestAnimationFrame(render);
    refreshBusy();
  };
  const onEvent = (entry: Entry, signal: AbortSignal) => (event: PublicStreamEvent) => {
    if (!signal.aborted) setTurn(entry, applyStreamEvent(entry.turn, event));
  };

  /** After a stream ended without `done`: read the turn back and follow it while it still runs. */
  const recover = async (entry: Entry, signal: AbortSignal) => {
    let refusals = 0;
    for (let attempt = 1; attempt <= RECOVER_ATTEMPTS && !signal.aborted && visitor; attempt += 1) {
      try {
        const transcript = await api.getTranscript(entry.sessionId, visitor.visitorToken);
        const stored =
          transcript.turns.find((turn) => turn.runId === entry.turn.runId) ?? transcript.turns.at(-1);
        if (stored && !signal.aborted) setTurn(entry, getTurnFromTranscript(stored));
        if (!isTurnLive(entry.turn) || signal.aborted) return;
        const ended = await api.followTurn({
          sessionId: entry.sessionId,
          token: visitor.visitorToken,
          onEvent: onEvent(entry, signal),
          signal,
        });
        if (ended) return;
      } catch (error) {
        if (signal.aborted) return;
        // Refused (no turn running any more, say): read the transcript once more, at once, then stop.
        if (error instanceof ChatApiError && error.status !== 0 && error.status < 500) {
          refusals += 1;
          if (refusals > 1) break;
          continue;
        }
      }
      await pause(1_000 * attempt);
    }
    if (!signal.aborted && isTurnLive(entry.turn)) {
      setTurn(entry, {
        ...entry.turn,
        status: "failed",
        waitingFor: null,
        error: "The connection to the chat was lost. Reload the page to see the answer.",
      });
    }
  };

  /** A conversation to send into: the stored one, or a new one (the visitor stays who they were). */
  const ensureSession = async (): Promise<VisitorState & { sessionId: string }> => {
    if (visitor?.sessionId) return { ...visitor, sessionId: visitor.sessionId };
    let created;
    try {
      created = await api.createSession(visitor?.visitorToken);
    } catch (error) {
      // A token the server no longer knows (its secret changed, say): start as a new visitor.
      if (!(error instanceof ChatApiError) || ![401, 403].includes(error.status) || !visitor) throw error;
      created = await api.createSession(undefined);
    }
    visitor = { visitorToken: created.visitorToken, sessionId: created.sessionId };
    storage.save(visitor);
    return { ...visitor, sessionId: created.sessionId };
  };

  async function send(text: string): Promise<void> {
    if (entries.some((entry) => isTurnLive(entry.turn))) return;
    shell.showProblem(null, newConversation);
    const signal = abort.signal;
    composer.setBusy(true);
    let entry: Entry | null = null;
    try {
      const session = await ensureSession();
      entry = addEntry(createSendingTurn(text), session.sessionId);
      composer.clear();
      shell.scrollToEnd(true);
      const ended = await api.sendTurn({
        sessionId: session.sessionId,
        token: session.visitorToken,
        query: text,
        onEvent: onEvent(entry, signal),
        signal,
      });
      if (!ended) await recover(entry, signal);
    } catch (error) {
      if (signal.aborted) return;
      if (entry && entry.turn.runId !== null) {
        await recover(entry, signal);
      } else {
        // The message was refused before any answer began: take it back into the box to send again.
        if (entry) {
          entry.view.element.remove();
          entries = entries.filter((other) => other !== entry);
          showIntro();
        }
        if (composer.input.value.trim() === "") composer.input.value = text;
        if (error instanceof ChatApiError && error.status === 404 && visitor) {
          visitor = { ...visitor, sessionId: null };
          storage.save(visitor);
        }
        problem(error);
      }
    } finally {
      if (!signal.aborted) refreshBusy();
    }
  }

  function newConversation(): void {
    abort.abort();
    abort = new AbortController();
    if (visitor) {
      visitor = { ...visitor, sessionId: null };
      storage.save(visitor);
    }
    entries = [];
    shell.log.replaceChildren();
    shell.showProblem(null, newConversation);
    showIntro();
    refreshBusy();
    composer.focus();
  }

  const showTranscript = (transcript: PublicTranscript) => {
    for (const turn of transcript.turns) addEntry(getTurnFromTranscript(turn), transcript.sessionId);
    shell.scrollToEnd(true);
    refreshBusy();
    const last = entries.at(-1);
    if (last && isTurnLive(last.turn)) void recover(last, abort.signal);
  };

  shell.newButton.addEventListener("click", newConversation);
  showIntro();
  if (visitor?.sessionId) {
    const { visitorToken, sessionId } = visitor;
    api.getTranscript(sessionId, visitorToken).then(showTranscript, (error: unknown) => {
      // A conversation the server no longer has for this visitor: start a new one on the next message.
      if (error instanceof ChatApiError && [401, 403, 404].includes(error.status)) {
        visitor = error.status === 404 ? { visitorToken, sessionId: null } : null;
        if (visitor) storage.save(visitor);
        else storage.clear();
        return;
      }
      problem(error);
    });
  }
  // On its own tab, the message box takes the focus (not on a phone: the keyboard would cover the page).
  // Framed, it waits to be asked: the embed asks when its panel opens; a preview never takes it.
  if (window.parent === window && window.matchMedia("(pointer: fine)").matches) composer.focus();
  return { focus: () => composer.focus() };
}
