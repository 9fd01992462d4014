import type { WaddleStore } from "../store/waddle-store.js";
import type { Actor } from "./actor.js";
import { inScope } from "./permissions.js";

/**
 * The store as a key limited to some agents sees it: `listAgents` lists only those, `getAgent` and
 * `getRun` find nothing of another agent. For the surfaces that scope themselves (`/mcp`); the store
 * itself when the actor may see every agent.
 */
export function scopeStore(store: WaddleStore, actor: Actor): WaddleStore {
  if (actor.agents === null) return store;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "listAgents") {
        return async () => (await target.listAgents()).filter((agent) => inScope(actor, agent.id));
      }
      if (property === "getAgent") {
        return async (id: string) => (inScope(actor, id) ? target.getAgent(id) : undefined);
      }
      if (property === "getRun") {
        return async (id: string) => {
          const run = await target.getRun(id);
          return run && inScope(actor, run.agentId) ? run : undefined;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
