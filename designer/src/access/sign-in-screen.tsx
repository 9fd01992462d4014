import { useState, type ReactElement } from "react";
import { meStore, signIn } from "../store/me-store.js";

/** The page a server with keys (or WADDLE_TOKEN) shows first: paste a key. */
export function SignInScreen(): ReactElement {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const error = meStore((state) => state.error);
  const submit = async () => {
    if (!value.trim()) return;
    setBusy(true);
    await signIn(value);
    setBusy(false);
  };
  return (
    <main className="signin-page" data-testid="signin-page">
      <form
        className="signin-card"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <h1>Sign in to Waddle</h1>
        <p>
          This server needs an API key. Ask an admin for one (Settings → Access), or use the server's
          WADDLE_TOKEN.
        </p>
        <label className="field">
          <span className="field-label">API key</span>
          <input
            className="input mono"
            type="password"
            autoFocus
            autoComplete="off"
            placeholder="wdl_…"
            value={value}
            data-testid="signin-key"
            onChange={(event) => setValue(event.target.value)}
          />
          <span className="field-hint">
            Kept in this browser only (localStorage) and sent as a Bearer token.
          </span>
        </label>
        {error ? (
          <p className="signin-error" role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="signin-submit"
          disabled={busy || !value.trim()}
        >
          Sign in
        </button>
      </form>
    </main>
  );
}
