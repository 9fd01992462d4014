import type { Server, Socket } from "socket.io";
import type { WaddleStore } from "../store/waddle-store.js";
import { type Actor } from "./actor.js";
import { UNAUTHORIZED_MESSAGE } from "./access-guard.js";
import type { Authenticator } from "./authenticator.js";
import { can, inScope } from "./permissions.js";
import { SOCKET_RULES } from "./route-permissions.js";

/** The actor of a socket, set at its handshake. */
export function socketActorOf(socket: Socket): Actor | undefined {
  return (socket.data as { actor?: Actor } | undefined)?.actor;
}

type Ack = (answer: { ok: false; error: { code: string; message: string; details?: unknown } }) => void;

/**
 * Access control of socket.io: the handshake presents the key as `auth: {token}` (the actor goes on
 * `socket.data.actor`), and every event needs its permission and, for a key limited to some agents, an
 * agent in scope (`SOCKET_RULES`). An event without a rule is refused. `cutKey` disconnects this instance's
 * sockets of a revoked key.
 */
export function attachSocketAccess(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app's socket events are typed elsewhere
  io: Server<any, any, any, any>,
  options: { authenticator: Authenticator; store: WaddleStore },
): { cutKey: (keyId: string) => void } {
  const { authenticator, store } = options;
  io.use((socket, next) => {
    const presented = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (presented !== undefined && (typeof presented !== "string" || presented.length > 512)) {
      return next(new Error(`unauthorized: ${UNAUTHORIZED_MESSAGE}`));
    }
    authenticator.authenticate(presented).then(
      (actor) => {
        if (!actor) return next(new Error(`unauthorized: ${UNAUTHORIZED_MESSAGE}`));
        (socket.data as { actor?: Actor }).actor = actor;
        next();
      },
      () => next(new Error("internal: the server could not check the key")),
    );
  });
  io.on("connection", (socket: Socket) => {
    socket.use(([event, message, ack], next) => {
      const answer: Ack = typeof ack === "function" ? (ack as Ack) : () => undefined;
      const actor = socketActorOf(socket);
      const rule = typeof event === "string" ? SOCKET_RULES[event] : undefined;
      if (!actor || !rule) {
        answer({
          ok: false,
          error: { code: "forbidden", message: `The event "${String(event)}" is not served.` },
        });
        return;
      }
      if (!can(actor, rule.access)) {
        answer({
          ok: false,
          error: {
            code: "forbidden",
            message: `This key may not do that: it needs the permission "${rule.access}".`,
            details: { permission: rule.access },
          },
        });
        return;
      }
      if (actor.agents === null || rule.scope === "none") return next();
      findSocketAgent(store, rule.scope, message).then(
        (agentId) => {
          if (agentId !== undefined && inScope(actor, agentId)) return next();
          answer({
            ok: false,
            error: { code: "not_found", message: "Not found, or outside the agents this key may use." },
          });
        },
        () =>
          answer({
            ok: false,
            error: { code: "internal", message: "The server could not check the scope." },
          }),
      );
    });
  });
  return {
    cutKey: (keyId) => {
      for (const socket of io.of("/").sockets.values()) {
        if (socketActorOf(socket)?.keyId === keyId) socket.disconnect(true);
      }
    },
  };
}

async function findSocketAgent(
  store: WaddleStore,
  scope: "run" | "agent" | "session",
  message: unknown,
): Promise<string | undefined> {
  const value = (message ?? {}) as { runId?: unknown; agentId?: unknown; sessionId?: unknown };
  if (scope === "agent") return typeof value.agentId === "string" ? value.agentId : undefined;
  if (scope === "run") {
    return typeof value.runId === "string" ? (await store.getRun(value.runId))?.agentId : undefined;
  }
  return typeof value.sessionId === "string"
    ? (await store.sessions.get(value.sessionId))?.agentId
    : undefined;
}
