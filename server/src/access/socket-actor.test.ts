import { describe, expect, it } from "vitest";
import { LOCAL_ACTOR, type Actor } from "./actor.js";
import { socketActorOf } from "./socket-actor.js";

describe("socketActorOf", () => {
  it("is the actor the handshake set, and the local actor when none did", () => {
    const alice: Actor = {
      kind: "key",
      name: "alice",
      keyId: "key_1",
      role: "editor",
      agents: null,
      canDecide: false,
    };
    expect(socketActorOf({ data: { actor: alice } })).toBe(alice);
    expect(socketActorOf({ data: {} })).toBe(LOCAL_ACTOR);
  });
});
