import { ROLES, type ApiKeySummary, type Role } from "@waddle/protocol";
import { useCallback, useEffect, useState, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { meStore } from "../store/me-store.js";
import { getSignInNote } from "./get-sign-in-note.js";

const when = (value: string | null, none: string) => (value ? new Date(value).toLocaleString() : none);

/** Settings → Access: the API keys, a form for a new one (its secret shown once), revoke. */
export function AccessPage({ onClose }: { onClose: () => void }): ReactElement {
  const { api } = useEditor();
  const [keys, setKeys] = useState<ApiKeySummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [form, setForm] = useState<{
    name: string;
    role: Role;
    agents: string;
    expiresAt: string;
    canDecide: boolean;
    canRelease: boolean;
  }>({
    name: "",
    role: "viewer",
    agents: "",
    expiresAt: "",
    canDecide: false,
    canRelease: false,
  });
  const kind = meStore((state) => state.me?.kind);
  // said once the list is read, so that a page with keys never flashes "no keys"
  const [loaded, setLoaded] = useState(false);
  const note = loaded ? getSignInNote({ kind, keys, now: Date.now() }) : null;
  const reload = useCallback(async () => {
    try {
      setKeys(await api.listKeys());
      setLoaded(true);
    } catch (cause) {
      setError((cause as Error).message);
    }
  }, [api]);
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
      const body = await api.createKey({
        name: form.name.trim(),
        role: form.role,
        ...(agents.length ? { agents } : {}),
        ...(form.expiresAt ? { expiresAt: new Date(`${form.expiresAt}T23:59:59`).toISOString() } : {}),
        ...(form.role === "runner" && form.canDecide ? { canDecide: true } : {}),
        ...(form.role === "editor" && form.canRelease ? { canRelease: true } : {}),
      });
      setCreated({ name: form.name.trim(), key: body.key });
      setCopied(false);
      setForm({ name: "", role: "viewer", agents: "", expiresAt: "", canDecide: false, canRelease: false });
      await reload();
    } catch (cause) {
      setError((cause as Error).message);
    }
  };
  const revoke = async (key: ApiKeySummary) => {
    setError(null);
    try {
      await api.revokeKey(key.id);
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
            onChange={(event) => setForm({ ...form, role: event.target.value as Role })}
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
        <label className="field field-inline" title="An editor key that may also release to production">
          <input
            type="checkbox"
            data-testid="key-can-release"
            disabled={form.role !== "editor"}
            checked={form.canRelease}
            onChange={(event) => setForm({ ...form, canRelease: event.target.checked })}
          />
          <span>May release to production (editor)</span>
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
                {key.canRelease ? " (releases)" : ""}
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
      {note ? (
        <p className="muted" data-testid="access-sign-in-note">
          {note}
        </p>
      ) : null}
    </section>
  );
}
