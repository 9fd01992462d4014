import { setStoredToken } from "../api/token-storage.js";
import type { Me } from "../store/me-store.js";

/** Shown on the sign-in screen when the key a person signed in with is refused while the page is in use. */
export const KEY_STOPPED_MESSAGE =
  "Your API key stopped working: it was revoked or has expired. Sign in with another key (an admin can make one in Settings → Access).";

/**
 * What a 401 while the page is in use leads to:
 * - `sign-in`: the person signed in with an API key, which the server no longer accepts (revoked or
 *   expired): back to the sign-in screen, saying so;
 * - `none`: the sign-in screen already shows (several requests fail at once): nothing more to do;
 * - `token-dialog`: a server that only uses WADDLE_TOKEN (or a page that never signed in with a key):
 *   the dialog that asks for the token, as before.
 */
export type UnauthorizedAction = "sign-in" | "none" | "token-dialog";

export function getUnauthorizedAction(state: {
  status: string;
  me: Pick<Me, "kind"> | null;
}): UnauthorizedAction {
  if (state.status === "signin") return "none";
  if (state.me?.kind === "key") return "sign-in";
  return "token-dialog";
}

interface MeStoreLike {
  getState: () => { status: string; me: Pick<Me, "kind"> | null };
  setState: (state: { status: "signin"; me: null; error: string }) => void;
}

/**
 * The API client's and sockets' `onUnauthorized`: a dead key sends the person to the sign-in screen
 * (forgetting the key) and the request fails; otherwise `askForToken` opens the token dialog and the
 * request is retried once a token is given.
 */
export function createUnauthorizedHandler(options: {
  me: MeStoreLike;
  askForToken: () => Promise<boolean>;
  forgetKey?: () => void;
}): () => Promise<boolean> {
  const forgetKey = options.forgetKey ?? (() => setStoredToken(null));
  return () => {
    const action = getUnauthorizedAction(options.me.getState());
    if (action === "token-dialog") return options.askForToken();
    if (action === "sign-in") {
      forgetKey();
      options.me.setState({ status: "signin", me: null, error: KEY_STOPPED_MESSAGE });
    }
    return Promise.resolve(false);
  };
}
