const TOKEN_KEY = "waddle.token";

/** The API token the user entered (when the server sets WADDLE_TOKEN), kept in localStorage. */
export function getStoredToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

export function setStoredToken(token: string | null): void {
  try {
    if (token) globalThis.localStorage?.setItem(TOKEN_KEY, token);
    else globalThis.localStorage?.removeItem(TOKEN_KEY);
  } catch {
    // storage can be disabled (private mode); the token then lasts for this page only
  }
}
