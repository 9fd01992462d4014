import type { InboxItem, InboxQuery, InboxResponse, RunRecord, SessionRecord } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { InboxMark, InboxMarkKey } from "../store/inbox/inbox-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { getMergeItem, getMergeRunId, getPauseItem } from "./get-inbox-item.js";
import { getMergeItemId, getPauseItemId, parseInboxItemId } from "./inbox-item-id.js";
import { getItemToken } from "./inbox-events.js";
import { pageInboxItems } from "./page-inbox-items.js";

/** Most paused runs, and most sessions holding merges, the inbox reads (each through an index). */
export const INBOX_SOURCE_LIMIT = 5_000;

/** Whose inbox: the agents a key may see (`null`: every agent). */
export interface InboxViewer {
  agents: readonly string[] | null;
}

/** A waiting item with its mark (for notices and time limits). */
export interface InboxEntry {
  item: InboxItem;
  mark: InboxMark | undefined;
}

/** Something in the inbox may have changed: one item, or the merges of one session. */
export type InboxChange = { itemId: string } | { sessionId: string };

const inView = (viewer: InboxViewer, agentId: string) =>
  viewer.agents === null || viewer.agents.includes(agentId);

/**
 * The approvals inbox as a view: the paused runs (runs, turns, public chats, tasks) and the merges sessions
 * hold for a person, read where they are (the runs' status index, the sessions' pending-merge index), with
 * what the inbox adds from its marks (assignee, snooze). Deciding goes through the resume and merge routes.
 */
export class InboxService {
  private readonly listeners = new Set<(change: InboxChange) => void>();

  constructor(private readonly options: { store: WaddleStore; now?: () => number }) {}

  now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** `GET /api/inbox`: one page of what the viewer may see. */
  async list(viewer: InboxViewer, query: InboxQuery): Promise<InboxResponse> {
    const one = viewer.agents?.length === 1 ? viewer.agents[0] : undefined;
    const entries = await this.listEntries(one === undefined ? {} : { agentId: one });
    const visible = entries.map((entry) => entry.item).filter((item) => inView(viewer, item.agentId));
    return pageInboxItems(visible, query, this.now());
  }

  /** Every waiting item with its mark, newest pauses and merges first (at most `INBOX_SOURCE_LIMIT` of each). */
  async listEntries(options: { agentId?: string } = {}): Promise<InboxEntry[]> {
    const { store } = this.options;
    const [runs, sessions] = await Promise.all([
      store.listRuns({ statuses: ["paused"], purpose: "run", limit: INBOX_SOURCE_LIMIT, ...options }),
      store.sessions.listWithPendingMerges({ limit: INBOX_SOURCE_LIMIT, ...options }),
    ]);
    const keys: InboxMarkKey[] = [
      ...runs.flatMap((run) =>
        run.pause ? [{ itemId: getPauseItemId(run.id), token: run.pause.resumeToken }] : [],
      ),
      ...sessions.flatMap((session) =>
        session.pendingMerges.map((merge) => ({
          itemId: getMergeItemId(session.id, merge.mergeId),
          token: merge.mergeId,
        })),
      ),
    ];
    const marks = await store.inbox.get(keys);
    const reader = new RunReader(store, runs);
    const entries: InboxEntry[] = [];
    for (const run of runs) {
      const mark = marks.get(getPauseItemId(run.id));
      const item = getPauseItem(run, { ...(mark ? { mark } : {}), ...(await reader.parentOf(run)) });
      if (item) entries.push({ item, mark });
    }
    for (const session of sessions) entries.push(...(await this.getMergeEntries(session, marks, reader)));
    return entries;
  }

  /** The item as it is now; undefined when nothing waits there any more (or never did). */
  async getEntry(itemId: string): Promise<InboxEntry | undefined> {
    const { store } = this.options;
    const ref = parseInboxItemId(itemId);
    if (!ref) return undefined;
    if (ref.kind === "pause") {
      const run = await store.getRun(ref.runId);
      if (!run?.pause) return undefined;
      const mark = (await store.inbox.get([{ itemId, token: run.pause.resumeToken }])).get(itemId);
      const item = getPauseItem(run, {
        ...(mark ? { mark } : {}),
        ...(await new RunReader(store, [run]).parentOf(run)),
      });
      return item && { item, mark };
    }
    const session = await store.sessions.get(ref.sessionId);
    const merge = session?.pendingMerges.find((candidate) => candidate.mergeId === ref.mergeId);
    if (!session || !merge) return undefined;
    const marks = await store.inbox.get([{ itemId, token: merge.mergeId }]);
    return (
      await this.getMergeEntries({ ...session, pendingMerges: [merge] }, marks, new RunReader(store, []))
    )[0];
  }

  /** The merges one session holds, as entries (the inbox's watchers read a session's after it changed). */
  async getSessionEntries(sessionId: string): Promise<InboxEntry[]> {
    const { store } = this.options;
    const session = await store.sessions.get(sessionId);
    if (!session || session.pendingMerges.length === 0) return [];
    const marks = await store.inbox.get(
      session.pendingMerges.map((merge) => ({
        itemId: getMergeItemId(session.id, merge.mergeId),
        token: merge.mergeId,
      })),
    );
    return this.getMergeEntries(session, marks, new RunReader(store, []));
  }

  /** `POST /api/inbox/:itemId/assign`: 404 for an item that is not waiting or that the viewer may not see. */
  assign(viewer: InboxViewer, itemId: string, assignee: string | null): Promise<InboxItem> {
    return this.mark(viewer, itemId, { assignee });
  }

  /** `POST /api/inbox/:itemId/snooze`: `until` in the future (400 otherwise), or null to wake it now. */
  snooze(viewer: InboxViewer, itemId: string, until: string | null): Promise<InboxItem> {
    if (until !== null && Date.parse(until) <= this.now()) {
      throw new ApiError(
        "validation_failed",
        'Fix the field "until" of the request body: it must be a time in the future (null wakes the item now).',
        {
          where: "body",
          issues: [{ path: "$.until", message: "must be in the future" }],
        },
      );
    }
    return this.mark(viewer, itemId, { snoozedUntil: until === null ? null : new Date(until).toISOString() });
  }

  /** Hears every change this instance makes or is told of (`noteChange`); returns how to stop. */
  onChange(listener: (change: InboxChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  noteChange(change: InboxChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private async mark(
    viewer: InboxViewer,
    itemId: string,
    change: { assignee?: string | null; snoozedUntil?: string | null },
  ): Promise<InboxItem> {
    const entry = await this.getEntry(itemId);
    if (!entry || !inView(viewer, entry.item.agentId)) {
      throw new ApiError(
        "not_found",
        `Nothing waits as inbox item "${itemId}": it was decided, or never existed.`,
        {
          id: itemId,
        },
      );
    }
    const mark = await this.options.store.inbox.set({
      itemId,
      token: getItemToken(entry.item),
      ...change,
      now: new Date(this.now()).toISOString(),
    });
    this.noteChange({ itemId });
    return { ...entry.item, assignee: mark.assignee, snoozedUntil: mark.snoozedUntil };
  }

  private async getMergeEntries(
    session: SessionRecord,
    marks: Map<string, InboxMark>,
    reader: RunReader,
  ): Promise<InboxEntry[]> {
    const entries: InboxEntry[] = [];
    for (const merge of session.pendingMerges) {
      const mark = marks.get(getMergeItemId(session.id, merge.mergeId));
      const turnRun = await reader.get(getMergeRunId(session, merge));
      entries.push({
        item: getMergeItem(session, merge, { ...(mark ? { mark } : {}), ...(turnRun ? { turnRun } : {}) }),
        mark,
      });
    }
    return entries;
  }
}

/** Reads runs once each (a task's turn, a merge's turn) while one listing is built. */
class RunReader {
  private readonly runs = new Map<string, Promise<RunRecord | undefined>>();

  constructor(
    private readonly store: WaddleStore,
    known: readonly RunRecord[],
  ) {
    for (const run of known) this.runs.set(run.id, Promise.resolve(run));
  }

  get(runId: string): Promise<RunRecord | undefined> {
    if (!runId) return Promise.resolve(undefined);
    let run = this.runs.get(runId);
    if (!run) {
      run = this.store.getRun(runId);
      this.runs.set(runId, run);
    }
    return run;
  }

  /** A task's turn, when it is needed to say who started the task. */
  async parentOf(run: RunRecord): Promise<{ parent?: RunRecord }> {
    if (run.kind !== "task" || run.parentRunId === undefined || run.startedBy !== undefined) return {};
    const parent = await this.get(run.parentRunId);
    return parent ? { parent } : {};
  }
}
