import type { LiveRunSettings } from "../credentials/credential-vault.js";
import { createServerLlm } from "../runs/default-planner-factory.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { RunService } from "../runs/run-service.js";
import type { RunSetup } from "../run-setup.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { SessionService } from "./session-service.js";
import { SessionTasks } from "./session-tasks.js";
import { SessionTurns } from "./session-turns.js";

export interface SessionServices {
  sessions: SessionService;
  /** The one place a turn starts: the turn route, its `POST /api/runs` alias, `/v1`, A2A. */
  turns: SessionTurns;
  tasks: SessionTasks;
}

/**
 * A server's sessions: their records, their turns (each a run, with the conversation compacted by the
 * agent's summarizer LLM as the live settings allow it) and their background tasks.
 */
export function createSessionServices(options: {
  store: WaddleStore;
  runs: RunService;
  hub: RunEventHub;
  setup: Pick<RunSetup, "env" | "redactor" | "logger" | "priceTable">;
  getRunSettings: () => Promise<LiveRunSettings>;
}): SessionServices {
  const { store, runs, hub, setup } = options;
  const { logger } = setup;
  const sessions = new SessionService(store);
  const tasks = new SessionTasks({ store, sessions, runs, hub, logger });
  const turns = new SessionTurns({
    store,
    sessions,
    runs,
    hub,
    logger,
    tasks,
    createSummarizer: async (spec) => {
      const live = await options.getRunSettings();
      return createServerLlm({
        config: spec.summarizerLlm ?? spec.llm,
        path: spec.summarizerLlm ? "summarizerLlm" : "llm",
        env: setup.env,
        policy: live.llmPolicy,
        redactor: setup.redactor,
        logger,
        getLlmKey: live.getLlmKey,
        ...(setup.priceTable ? { priceTable: setup.priceTable } : {}),
      });
    },
  });
  return { sessions, turns, tasks };
}
