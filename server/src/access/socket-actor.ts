import type { Socket } from "socket.io";
import { LOCAL_ACTOR, type Actor } from "./actor.js";

/** The actor the socket's handshake signed in as (`socket.data.actor`); the local actor when none did. */
export function socketActorOf(socket: Pick<Socket, "data">): Actor {
  return ((socket.data as { actor?: Actor } | undefined)?.actor ?? LOCAL_ACTOR) as Actor;
}
