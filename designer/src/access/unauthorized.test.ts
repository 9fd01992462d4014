import { describe, expect, it } from "vitest";
import { create } from "zustand";
import { createUnauthorizedHandler, getUnauthorizedAction, KEY_STOPPED_MESSAGE } from "./unauthorized.js";

type Kind = "local" | "token" | "key";
interface State {
  status: string;
  me: { kind?: Kind } | null;
  error: string | null;
}

function setup(state: State) {
  const me = create<State>(() => state);
  const calls = { asked: 0, forgot: 0 };
  const handle = createUnauthorizedHandler({
    me,
    askForToken: () => {
      calls.asked += 1;
      return Promise.resolve(true);
    },
    forgetKey: () => {
      calls.forgot += 1;
    },
  });
  return { me, calls, handle };
}

describe("getUnauthorizedAction", () => {
  it("sends a person signed in with a key back to sign-in", () => {
    expect(getUnauthorizedAction({ status: "ready", me: { kind: "key" } })).toBe("sign-in");
  });

  it("keeps the token dialog for WADDLE_TOKEN, the local user and a page that never learned who it is", () => {
    expect(getUnauthorizedAction({ status: "ready", me: { kind: "token" } })).toBe("token-dialog");
    expect(getUnauthorizedAction({ status: "ready", me: { kind: "local" } })).toBe("token-dialog");
    expect(getUnauthorizedAction({ status: "ready", me: {} })).toBe("token-dialog");
    expect(getUnauthorizedAction({ status: "offline", me: null })).toBe("token-dialog");
  });

  it("does nothing more while the sign-in screen shows", () => {
    expect(getUnauthorizedAction({ status: "signin", me: null })).toBe("none");
  });
});

describe("createUnauthorizedHandler", () => {
  it("a dead key: forgets it, shows sign-in with the reason, never the token dialog, and does not retry", async () => {
    const { me, calls, handle } = setup({ status: "ready", me: { kind: "key" }, error: null });
    await expect(handle()).resolves.toBe(false);
    expect(me.getState()).toEqual({ status: "signin", me: null, error: KEY_STOPPED_MESSAGE });
    expect(KEY_STOPPED_MESSAGE).toMatch(/revoked or has expired/);
    expect(calls).toEqual({ asked: 0, forgot: 1 });
    // the other requests failing at the same time change nothing more
    await expect(handle()).resolves.toBe(false);
    expect(calls).toEqual({ asked: 0, forgot: 1 });
  });

  it("a WADDLE_TOKEN-only server: asks for the token and retries once it is given", async () => {
    const { me, calls, handle } = setup({ status: "ready", me: { kind: "token" }, error: null });
    await expect(handle()).resolves.toBe(true);
    expect(calls).toEqual({ asked: 1, forgot: 0 });
    expect(me.getState().status).toBe("ready");
  });
});
