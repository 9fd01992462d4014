import {
  CREDENTIAL_NAME_PATTERN,
  PutCredentialRequest,
  type CredentialInfo,
  type CredentialKind,
} from "@waddle/protocol";
import { useId, useState, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { getErrorMessage } from "../api/api-error.js";

/** What the form starts with: empty to add, or the credential to replace (its value is never shown). */
export interface CredentialDraft {
  name: string;
  kind: CredentialKind;
  baseUrl?: string;
  models?: readonly string[];
  replacing?: boolean;
}

/** The first thing to fix before the form can be sent; null when it can. */
function getFormError(name: string, body: unknown): string | null {
  if (!CREDENTIAL_NAME_PATTERN.test(name))
    return "The name uses 1 to 64 upper-case letters, digits or _ (for example OPENAI_KEY).";
  const parsed = PutCredentialRequest.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const field = { value: "The key", baseUrl: "The base URL", models: "The models" }[String(issue?.path[0])];
  return `${field ?? "The form"} ${issue?.message ?? "is not valid"}.`;
}

/**
 * Adds or replaces a credential: an LLM endpoint (name, OpenAI-compatible base URL, key, models) or a
 * secret for http tool headers (name, value). The value goes to the server and is never read back.
 */
export function CredentialForm(props: {
  draft: CredentialDraft;
  onSaved: (saved: CredentialInfo) => void;
  onCancel: () => void;
}): ReactElement {
  const editor = useEditor();
  const id = useId();
  const [kind, setKind] = useState<CredentialKind>(props.draft.kind);
  const [name, setName] = useState(props.draft.name);
  const [baseUrl, setBaseUrl] = useState(props.draft.baseUrl ?? "");
  const [value, setValue] = useState("");
  const [models, setModels] = useState((props.draft.models ?? []).join(", "));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const body = {
    kind,
    value,
    ...(kind === "llm" && baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
    ...(kind === "llm" && models.trim()
      ? {
          models: models
            .split(",")
            .map((model) => model.trim())
            .filter(Boolean),
        }
      : {}),
  };
  const save = async () => {
    const problem = getFormError(name, body);
    if (problem) return setError(problem);
    setSaving(true);
    try {
      props.onSaved(await editor.api.putCredential(name, body));
    } catch (caught) {
      setError(getErrorMessage(caught));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="credential-form"
      data-testid="credential-form"
      aria-label={props.draft.replacing ? `Replace ${props.draft.name}` : "Add a credential"}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {props.draft.replacing ? null : (
        <div className="credential-kinds" role="radiogroup" aria-label="Kind">
          {(
            [
              ["llm", "LLM endpoint", "A key for an OpenAI-compatible model endpoint"],
              ["secret", "Secret", "A token or password for http tool headers"],
            ] as const
          ).map(([option, label, hint]) => (
            <label key={option} className={`credential-kind${kind === option ? " is-active" : ""}`}>
              <input
                type="radio"
                name={`${id}-kind`}
                value={option}
                checked={kind === option}
                data-testid={`credential-kind-${option}`}
                onChange={() => setKind(option)}
              />
              <span className="credential-kind-label">{label}</span>
              <span className="field-hint">{hint}</span>
            </label>
          ))}
        </div>
      )}
      <div className="field-grid">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            id={`${id}-name`}
            className="input mono"
            value={name}
            readOnly={props.draft.replacing}
            placeholder={kind === "llm" ? "OPENAI_KEY" : "WEATHER_TOKEN"}
            data-testid="credential-name"
            autoComplete="off"
            onChange={(event) => setName(event.target.value.toUpperCase().replace(/[^A-Z0-9_]/g, "_"))}
          />
          <span className="field-hint">
            {kind === "llm" ? (
              <>
                An agent uses it as <code>llm.credential: &quot;{name || "NAME"}&quot;</code>
              </>
            ) : (
              <>
                An http header uses it as <code>{`{"secret": "${name || "NAME"}"}`}</code>
              </>
            )}
          </span>
        </div>
        {kind === "llm" ? (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-url`}>
              Base URL
            </label>
            <input
              id={`${id}-url`}
              className="input mono"
              value={baseUrl}
              placeholder="https://api.openai.com/v1"
              data-testid="credential-base-url"
              onChange={(event) => setBaseUrl(event.target.value)}
            />
            <span className="field-hint">Storing the key allows this endpoint.</span>
          </div>
        ) : null}
        <div className="field">
          <label className="field-label" htmlFor={`${id}-value`}>
            {kind === "llm" ? "API key" : "Value"}
          </label>
          <input
            id={`${id}-value`}
            className="input mono"
            type="password"
            value={value}
            autoComplete="new-password"
            placeholder={props.draft.replacing ? "The new value" : ""}
            data-testid="credential-value"
            onChange={(event) => setValue(event.target.value)}
          />
          <span className="field-hint">Encrypted on the server; never shown again.</span>
        </div>
        {kind === "llm" ? (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-models`}>
              Models <span className="field-hint">(optional)</span>
            </label>
            <input
              id={`${id}-models`}
              className="input mono"
              value={models}
              placeholder="gpt-4o-mini, gpt-4o"
              data-testid="credential-models"
              onChange={(event) => setModels(event.target.value)}
            />
          </div>
        ) : null}
      </div>
      {error ? (
        <p className="field-error" role="alert" data-testid="credential-error">
          {error}
        </p>
      ) : null}
      <div className="credential-form-actions">
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="credential-save">
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
