import type { Trigger, TriggerFire } from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { TriggersApi } from "../api/triggers-api.js";
import { getErrorMessage, isApiError } from "../api/api-error.js";
import {
  getCreateTriggerRequest,
  getTriggerFormErrors,
  getUpdateTriggerRequest,
  type TriggerForm,
  type TriggerFormErrors,
} from "./trigger-form.js";

/** A webhook's secret, shown once after it was created (the server keeps only what checks it). */
export interface ShownSecret {
  triggerId: string;
  secret: string;
}

export interface TriggersState {
  agentId: string;
  triggers: readonly Trigger[];
  status: "loading" | "ready" | "failed";
  error: string | null;
  /** The fires of each trigger whose fires were read, newest first. */
  fires: Readonly<Record<string, readonly TriggerFire[]>>;
  secret: ShownSecret | null;
  load(): Promise<void>;
  loadFires(triggerId: string): Promise<void>;
  /**
   * Creates a trigger (`saved` absent) or saves the changes to one. Resolves the trigger, or the errors by
   * field (the form's own checks, or the server's 400 on its field).
   */
  save(form: TriggerForm, saved?: Trigger): Promise<{ trigger: Trigger } | { errors: TriggerFormErrors }>;
  setEnabled(triggerId: string, enabled: boolean): Promise<void>;
  remove(triggerId: string): Promise<void>;
}

export type TriggersStore = StoreApi<TriggersState>;

const FORM_FIELDS = new Set<string>([
  "name",
  "query",
  "channel",
  "cron",
  "timezone",
  "overlap",
  "catchUp",
  "secretMode",
  "idempotencyField",
]);

/** The field a 400 names (`details.field`, `details.issues[].path`, or the message's first word). */
export function getServerFieldErrors(error: unknown): TriggerFormErrors | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const details = error.details as
    { field?: string; issues?: { path?: string | string[]; message?: string }[] } | undefined;
  // an issue's own message says what is wrong with its field; the error's message wraps it
  const fromIssues = (details?.issues ?? []).map((issue) => ({
    field: Array.isArray(issue.path) ? issue.path[0] : /^\$?\.?(\w+)/.exec(issue.path ?? "")?.[1],
    message: issue.message ?? error.message,
  }));
  const named = [
    { field: details?.field, message: error.message },
    ...fromIssues,
    { field: /^(\w+)\b/.exec(error.message)?.[1], message: error.message },
  ].find((entry) => typeof entry.field === "string" && FORM_FIELDS.has(entry.field));
  return named?.field ? { [named.field]: named.message } : null;
}

/** One agent's triggers for the Triggers panel: list, save, turn on and off, delete, and each one's fires. */
export function createTriggersStore(options: { api: TriggersApi; agentId: string }): TriggersStore {
  const { api, agentId } = options;
  return createStore<TriggersState>()((set, get) => {
    const put = (trigger: Trigger) => {
      const known = get().triggers.some((item) => item.id === trigger.id);
      set({
        triggers: known
          ? get().triggers.map((item) => (item.id === trigger.id ? trigger : item))
          : [...get().triggers, trigger],
      });
    };
    return {
      agentId,
      triggers: [],
      status: "loading",
      error: null,
      fires: {},
      secret: null,

      async load() {
        try {
          set({ triggers: await api.listTriggers(agentId), status: "ready", error: null });
        } catch (error) {
          set({ status: get().status === "ready" ? "ready" : "failed", error: getErrorMessage(error) });
        }
      },

      async loadFires(triggerId) {
        try {
          const fires = await api.listTriggerFires(agentId, triggerId);
          set({ fires: { ...get().fires, [triggerId]: fires } });
        } catch (error) {
          set({ error: getErrorMessage(error) });
        }
      },

      async save(form, saved) {
        const errors = getTriggerFormErrors(form);
        if (Object.keys(errors).length > 0) return { errors };
        try {
          if (saved) {
            const trigger = await api.updateTrigger(agentId, saved.id, getUpdateTriggerRequest(form, saved));
            put(trigger);
            set({ error: null });
            return { trigger };
          }
          const created = await api.createTrigger(agentId, getCreateTriggerRequest(form));
          put(created.trigger);
          set({
            error: null,
            secret: created.secret ? { triggerId: created.trigger.id, secret: created.secret } : null,
          });
          return { trigger: created.trigger };
        } catch (error) {
          const fieldErrors = getServerFieldErrors(error);
          if (fieldErrors) return { errors: fieldErrors };
          set({ error: getErrorMessage(error) });
          return { errors: {} };
        }
      },

      async setEnabled(triggerId, enabled) {
        try {
          put(await api.updateTrigger(agentId, triggerId, { enabled }));
          set({ error: null });
        } catch (error) {
          set({ error: getErrorMessage(error) });
        }
      },

      async remove(triggerId) {
        try {
          await api.deleteTrigger(agentId, triggerId);
          const { [triggerId]: gone, ...fires } = get().fires;
          void gone;
          set({
            triggers: get().triggers.filter((item) => item.id !== triggerId),
            fires,
            secret: get().secret?.triggerId === triggerId ? null : get().secret,
            error: null,
          });
        } catch (error) {
          set({ error: getErrorMessage(error) });
        }
      },
    };
  });
}
