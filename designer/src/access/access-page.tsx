import { useCallback, useEffect, useState, type ReactElement } from "react";
import { z } from "zod";
import { getStoredToken } from "../api/token-storage.js";

const KeySummary = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  agents: z.array(z.string()).nullable(),
  canDecide: z.boolean(),
  rateLimit: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
type KeySummary = z.infer<typeof KeySummary>;
const ROLES = ["viewer", "runner", "editor", "admin"] as const;

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const token = getStoredToken();
  const response = await fetch(path, {
    method,
    headers: {
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const payload: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const message = (payload as { message?: string } | undefined)?.message;
    throw new Error(message ?? `The server answered ${response.status}.`);
  }
  return payload;
}

const when = (value: string | null, none: string) => (value ? new Date(value).toLocaleString() : none);

/** Settings → Access: the API keys, a form for a new one (its secret shown once), revoke. */
export function AccessPage({ onClose }: { onClose: () => void }): ReactElement {
  const [keys, setKeys] = useState<KeySummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [form, setForm] = useState({ name: "", role: "viewer", agents: "", expiresAt: "", canDecide: false });
  const reload = useCallback(async () => {
    try {
      const body = z.object({ keys: z.array(KeySummary) }).parse(await call("GET", "/api/keys"));
      setKeys(body.keys);
    } catch (cause) {
      setError((cause as Error).message);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  const create = async () => {
    setError(null);
    const agents = form.agents
      .split(",")
      .map((agent) => agent.trim())
      .filter(Boolean);
    try {
      const body = (await call("POST", "/api/keys", {
        name: form.name.trim(),
        role: form.role,
        ...(agents.length ? { agents } : {}),
        ...(form.expiresAt ? { expiresAt: new Date(`${form.expiresAt}T23:59:59`).toISOString() } : {}),
        ...(form.role === "runner" && form.canDecide ? { canDecide: true } : {}),
      })) as { key: string };
      setCreated({ name: form.name.trim(), key: body.key });
      setCopied(false);
      setForm({ name: "", role: "viewer", agents: "", expiresAt: "", canDecide: false });
      await reload();
    } catch (cause) {
      setError((cause as Error).message);
    }
  };
  const revoke = async (key: KeySummary) => {
    setError(null);
    try {
      await call("DELETE", `/api/keys/${key.id}`);
      await reload();
    } catch (cause) {
      setError((cause as Error).message);
    }
  };
  return (
    <section className="access-page" data-testid="access-page" aria-label="Access">
      <header className="access-header">
        <h1>Access</h1>
        <p>
          API keys and their roles. Each key is shown once, when it is created; the server keeps only a hash.
        </p>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Back to the designer
        </button>
      </header>
      {created ? (
        <div className="access-created" role="status">
          <strong>New key “{created.name}”: copy it now, it is not shown again.</strong>
          <code className="mono" data-testid="key-secret">
            {created.key}
          </code>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void navigator.clipboard?.writeText(created.key).then(() => setCopied(true))}
          >
            {copied ? "Copied" : "Copy"}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      ) : null}
      <form
        className="access-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label className="field">
          <span className="field-label">Name</span>
          <input
            className="input"
            data-testid="key-name"
            value={form.name}
            placeholder="support bot"
            onChange={(event) => setForm({ ...form, name: event.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">Role</span>
          <select
            className="input"
            data-testid="key-role"
            value={form.role}
            onChange={(event) => setForm({ ...form, role: event.target.value })}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Agents (optional)</span>
          <input
            className="input"
            data-testid="key-agents"
            value={form.agents}
            placeholder="every agent; or ids, comma separated"
            onChange={(event) => setForm({ ...form, agents: event.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">Expires (optional)</span>
          <input
            className="input"
            type="date"
            data-testid="key-expires"
            value={form.expiresAt}
            onChange={(event) => setForm({ ...form, expiresAt: event.target.value })}
          />
        </label>
        <label className="field field-inline" title="A runner key that may also approve pauses and merges">
          <input
            type="checkbox"
            disabled={form.role !== "runner"}
            checked={form.canDecide}
            onChange={(event) => setForm({ ...form, canDecide: event.target.checked })}
          />
          <span>May decide pauses (runner)</span>
        </label>
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="key-create"
          disabled={!form.name.trim()}
        >
          Create key
        </button>
      </form>
      {error ? (
        <p className="access-error" role="alert">
          {error}
        </p>
      ) : null}
      <table className="access-keys">
        <thead>
          <tr>
            <th>Name</th>
            <th>Role</th>
            <th>Agents</th>
            <th>Expires</th>
            <th>Last use</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-testid="key-item" className={key.revokedAt ? "revoked" : undefined}>
              <td>{key.name}</td>
              <td>
                {key.role}
                {key.canDecide ? " (decides)" : ""}
              </td>
              <td>{key.agents ? key.agents.join(", ") : "all"}</td>
              <td>{when(key.expiresAt, "never")}</td>
              <td>{when(key.lastUsedAt, "not used yet")}</td>
              <td>
                {key.revokedAt ? (
                  <span className="muted">revoked {when(key.revokedAt, "")}</span>
                ) : (
                  <button
                    type="button"
                    className="btn btn-ghost"
                    data-testid="key-revoke"
                    onClick={() => void revoke(key)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.length === 0 ? (
        <p className="muted">No keys yet: this server needs no sign-in on 127.0.0.1.</p>
      ) : null}
    </section>
  );
}
