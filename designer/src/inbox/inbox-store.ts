import type { InboxItem, ToolSpec } from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AgentsApi } from "../api/agents-api.js";
import type { InboxApi } from "../api/inbox-api.js";
import type { RunsApi } from "../api/runs-api.js";
import type { SessionsApi } from "../api/sessions-api.js";
import type { ResumeInput } from "../runs/run-store-state.js";
import { sendResumeDecision } from "../runs/send-resume-decision.js";
import type { AgentWatchLink } from "../socket/agent-watches.js";
import { watchInbox } from "../socket/inbox-watch.js";
import { appendInboxPage, removeInboxItem, upsertInboxItem } from "./apply-inbox-change.js";
import {
  ALREADY_DECIDED,
  getInboxErrorMessage,
  getInboxItemTitle,
  NO_LONGER_WAITING,
} from "./describe-inbox-item.js";
import { DEFAULT_INBOX_FILTER, getInboxQuery, isInInboxFilter, type InboxFilter } from "./inbox-filter.js";

const PAGE_SIZE = 50;

/**
 * What the list leaves out: the whole args and the paused tool's spec (the edit form), and the pause's
 * payload (a stuck run's message, a guard's findings).
 */
export interface PauseDetail {
  args: unknown;
  tool: ToolSpec | undefined;
  payload: Readonly<Record<string, unknown>>;
}

export interface InboxStoreState {
  filter: InboxFilter;
  /** The page's items under its filters, newest first, kept live from `watch_inbox`. */
  items: readonly InboxItem[];
  nextCursor: string | null;
  /** `idle` until the Inbox page first loads the list; the header's count needs no list. */
  status: "idle" | "loading" | "ready" | "failed";
  error: string | null;
  /** Open items the key may see, all agents and pages together (the header's badge); null until known. */
  openCount: number | null;
  /** A refusal on one item (a bad edit, a snooze in the past), shown on it. */
  itemErrors: Readonly<Record<string, string>>;
  /** Said at the top of the page: a decision that came second ("Someone already decided this."). */
  notice: string | null;
  setFilter(patch: Partial<InboxFilter>): Promise<void>;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  assign(itemId: string, assignee: string | null): Promise<boolean>;
  snooze(itemId: string, until: string | null): Promise<boolean>;
  /** Approves, rejects or edits a pause (`POST /api/runs/:id/resume`), or applies or rejects a merge. */
  decide(item: InboxItem, input: ResumeInput): Promise<boolean>;
  getPauseDetail(item: InboxItem): Promise<PauseDetail>;
  dismissNotice(): void;
  /** Watches the inbox live while anyone holds a watch (the header's badge does); returns the stop. */
  watch(): () => void;
}

export type InboxStore = StoreApi<InboxStoreState>;

export interface InboxStoreOptions {
  api: Pick<InboxApi, "listInbox" | "assignInboxItem" | "snoozeInboxItem"> &
    Pick<RunsApi, "resumeRun" | "getRun"> &
    Pick<SessionsApi, "decideMerge"> &
    Pick<AgentsApi, "getVersion">;
  link: AgentWatchLink;
  /** The signed-in key's name (what the "Me" filter and "Assign to me" use). */
  getMe: () => string | null;
  now?: () => number;
}

/** The approvals inbox's state: the page's list and filters, the open count, decisions, assign and snooze. */
export function createInboxStore(options: InboxStoreOptions): InboxStore {
  const { api, link, getMe } = options;
  const now = options.now ?? Date.now;
  let generation = 0;
  let watchers = 0;
  let stopWatch: (() => void) | null = null;
  let counting: Promise<void> | null = null;
  let countAgain = false;
  const specs = new Map<string, Promise<ToolSpec[]>>();

  const store = createStore<InboxStoreState>()((set, get) => {
    const passes = (item: InboxItem) => isInInboxFilter(item, get().filter, { me: getMe(), now: now() });
    /** The badge's count, read again after any change (one read at a time, one more if asked meanwhile). */
    const refreshCount = () => {
      if (counting) {
        countAgain = true;
        return;
      }
      counting = api
        .listInbox({ state: "open", limit: 1 })
        .then((page) => set({ openCount: page.openCount }))
        .catch(() => undefined)
        .finally(() => {
          counting = null;
          if (countAgain) {
            countAgain = false;
            refreshCount();
          }
        });
    };
    const showItem = (item: InboxItem) => {
      if (get().status === "idle") return;
      set({ items: upsertInboxItem(get().items, item, passes(item)) });
    };
    const dropItem = (itemId: string) => {
      const { [itemId]: dropped, ...itemErrors } = get().itemErrors;
      void dropped;
      set({ items: removeInboxItem(get().items, itemId), itemErrors });
    };
    /** A refusal: a decision that came second leaves the list with a notice, any other stays on the item. */
    const failItem = (item: InboxItem, message: string) => {
      if (message === ALREADY_DECIDED || message === NO_LONGER_WAITING) {
        set({ notice: `${item.agentId} · ${getInboxItemTitle(item)}: ${message}` });
        dropItem(item.itemId);
        refreshCount();
        return false;
      }
      set({ itemErrors: { ...get().itemErrors, [item.itemId]: message } });
      return false;
    };

    return {
      filter: DEFAULT_INBOX_FILTER,
      items: [],
      nextCursor: null,
      status: "idle",
      error: null,
      openCount: null,
      itemErrors: {},
      notice: null,

      async setFilter(patch) {
        set({ filter: { ...get().filter, ...patch } });
        await get().load();
      },

      async load() {
        const at = ++generation;
        set({ status: get().status === "ready" ? "ready" : "loading", error: null });
        try {
          const page = await api.listInbox(getInboxQuery(get().filter, { me: getMe(), limit: PAGE_SIZE }));
          if (at !== generation) return;
          set({ items: page.items, nextCursor: page.nextCursor, status: "ready", itemErrors: {} });
          if (get().filter.state === "open" || !get().filter.agentId) refreshCount();
        } catch (error) {
          if (at === generation) set({ status: "failed", error: getInboxErrorMessage(error) });
        }
      },

      async loadMore() {
        const cursor = get().nextCursor;
        if (cursor === null) return;
        const at = generation;
        try {
          const query = getInboxQuery(get().filter, { me: getMe(), cursor, limit: PAGE_SIZE });
          const page = await api.listInbox(query);
          if (at !== generation) return;
          set({ items: appendInboxPage(get().items, page.items), nextCursor: page.nextCursor });
        } catch (error) {
          set({ error: getInboxErrorMessage(error) });
        }
      },

      async assign(itemId, assignee) {
        const item = get().items.find((candidate) => candidate.itemId === itemId);
        try {
          showItem(await api.assignInboxItem(itemId, assignee));
          return true;
        } catch (error) {
          return item ? failItem(item, getInboxErrorMessage(error)) : false;
        }
      },

      async snooze(itemId, until) {
        const item = get().items.find((candidate) => candidate.itemId === itemId);
        try {
          showItem(await api.snoozeInboxItem(itemId, until));
          refreshCount();
          return true;
        } catch (error) {
          return item ? failItem(item, getInboxErrorMessage(error)) : false;
        }
      },

      async decide(item, input) {
        set({ notice: null });
        try {
          if (item.kind === "merge") {
            if (!item.sessionId || !item.mergeId) throw new Error("This merge names no session.");
            await api.decideMerge(item.sessionId, item.mergeId, {
              decision: input.decision === "reject" ? "reject" : "approve",
              ...(input.userInput ? { note: input.userInput } : {}),
            });
          } else {
            const token = item.resumeToken ?? (await api.getRun(item.runId)).pause?.resumeToken;
            if (!token) return failItem(item, NO_LONGER_WAITING);
            const sent = await sendResumeDecision(api, item.runId, token, input);
            if (!sent.ok) {
              const message = sent.conflict
                ? sent.conflict.reason === "not_paused"
                  ? NO_LONGER_WAITING
                  : ALREADY_DECIDED
                : sent.message;
              return failItem(item, message);
            }
          }
          dropItem(item.itemId);
          refreshCount();
          return true;
        } catch (error) {
          return failItem(item, getInboxErrorMessage(error));
        }
      },

      async getPauseDetail(item) {
        const key = `${item.agentId}@${item.agentVersion}`;
        if (!specs.has(key)) {
          const read = api.getVersion(item.agentId, item.agentVersion).then((record) => record.spec.tools);
          // a failed read is asked again next time
          read.catch(() => specs.delete(key));
          specs.set(key, read);
        }
        const [run, tools] = await Promise.all([api.getRun(item.runId), specs.get(key)!]);
        return {
          args: run.pause?.payload.args,
          tool: tools.find((tool) => tool.name === item.tool),
          payload: run.pause?.payload ?? {},
        };
      },

      dismissNotice() {
        set({ notice: null });
      },

      watch() {
        watchers += 1;
        stopWatch ??= watchInbox(link, {
          onWatched(openCount) {
            set({ openCount });
            // what changed while the socket was away: read the page again
            if (get().status !== "idle") void get().load();
          },
          onAdded(item) {
            showItem(item);
            refreshCount();
          },
          onUpdated(item) {
            showItem(item);
            refreshCount();
          },
          onRemoved(removed) {
            dropItem(removed.itemId);
            refreshCount();
          },
        });
        let stopped = false;
        return () => {
          if (stopped) return;
          stopped = true;
          watchers -= 1;
          if (watchers > 0) return;
          stopWatch?.();
          stopWatch = null;
        };
      },
    };
  });
  return store;
}
