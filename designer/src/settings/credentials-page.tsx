import type { AllowListResponse, CredentialInfo, CredentialKind } from "@waddle/protocol";
import { useCallback, useEffect, useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { Icon } from "../components/icon.js";
import { useEditor } from "../editor/editor-context.js";
import { AllowListSection } from "./allow-list-section.js";
import { CredentialForm, type CredentialDraft } from "./credential-form.js";
import type { CredentialsRoute } from "./settings-route.js";
import { CredentialTestButton, CredentialTestResult, useCredentialTest } from "./credential-test.js";
import { forgetCredentialModels } from "./credential-models.js";

const SECTIONS: { kind: CredentialKind; title: string; hint: string }[] = [
  {
    kind: "llm",
    title: "LLM endpoints",
    hint: "Keys for OpenAI-compatible endpoints. An agent picks one as its model's credential; OPENAI_API_KEY is the default.",
  },
  {
    kind: "secret",
    title: "Secrets",
    hint: 'Tokens and passwords that http tool headers name as {"secret": "NAME"}.',
  },
];

/** The credential a fix action asked to add, if any. */
function getRouteDraft(route: CredentialsRoute): CredentialDraft | null {
  if (route.addLlm) return { name: route.addLlm, kind: "llm" };
  if (route.addSecret) return { name: route.addSecret, kind: "secret" };
  return null;
}

function getHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function CredentialItem(props: {
  credential: CredentialInfo;
  onReplace: () => void;
  onDelete: () => void;
}): ReactElement {
  const { credential } = props;
  const fromEnv = credential.source === "environment";
  const test = useCredentialTest(credential.name);
  const testable = credential.kind === "llm" && !credential.shadowed;
  return (
    <li
      className={`credential-item${credential.shadowed ? " is-shadowed" : ""}`}
      data-testid="credential-item"
      data-name={credential.name}
      data-source={credential.source}
    >
      <div className="credential-main">
        <span className="credential-name">{credential.name}</span>
        <span className="credential-meta">
          <span className="credential-last4" title="The last 4 characters of the value">
            {credential.last4 ? `••••${credential.last4}` : "••••"}
          </span>
          {credential.baseUrl ? <span title={credential.baseUrl}>{getHost(credential.baseUrl)}</span> : null}
          {credential.models?.length ? <span>{credential.models.join(", ")}</span> : null}
          {credential.updatedAt ? (
            <span>updated {new Date(credential.updatedAt).toLocaleString()}</span>
          ) : null}
        </span>
        {credential.shadowed ? (
          <span className="field-hint">Not used: the environment&apos;s {credential.name} wins.</span>
        ) : null}
        {testable ? <CredentialTestResult state={test.state} /> : null}
      </div>
      {testable ? <CredentialTestButton state={test.state} onTest={test.run} /> : null}
      {fromEnv ? (
        <span
          className="badge badge-muted"
          title="Set in the server's environment: change it there (read-only here)"
          data-testid="credential-from-env"
        >
          <Icon name="lock" size={11} /> from environment
        </span>
      ) : (
        <span className="credential-actions">
          <button type="button" className="btn btn-small" onClick={props.onReplace}>
            Replace value
          </button>
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            data-testid="credential-delete"
            onClick={props.onDelete}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  );
}

/**
 * The server-wide Credentials page (`#/settings/credentials`, from the toolbar): LLM endpoints and secrets
 * (the environment's read-only), and the http and LLM allow-lists. Changes apply to the next run.
 */
export function CredentialsPage(props: {
  route: CredentialsRoute;
  /** Back to the designer (the open agent). */
  onClose: () => void;
}): ReactElement {
  const editor = useEditor();
  const [credentials, setCredentials] = useState<CredentialInfo[] | null>(null);
  const [lists, setLists] = useState<AllowListResponse | null>(null);
  const [draft, setDraft] = useState<CredentialDraft | null>(() => getRouteDraft(props.route));
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const [loaded, allow] = await Promise.all([editor.api.listCredentials(), editor.api.getAllowList()]);
      setCredentials(loaded);
      setLists(allow);
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  }, [editor]);
  useEffect(() => void load(), [load]);
  const { addLlm, addSecret } = props.route;
  useEffect(() => {
    const next = getRouteDraft({ ...(addLlm ? { addLlm } : {}), ...(addSecret ? { addSecret } : {}) });
    if (next) setDraft(next);
  }, [addLlm, addSecret]);
  const remove = async (name: string) => {
    if (!window.confirm(`Delete the credential ${name}? Agents that use it fall back to the offline model.`))
      return;
    try {
      await editor.api.deleteCredential(name);
      forgetCredentialModels(editor.api, name);
      await load();
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  };

  return (
    <div className="credentials-page" data-testid="credentials-page">
      <div className="credentials-inner">
        <header className="credentials-header">
          <div>
            <h1 className="credentials-title">Credentials</h1>
            <p className="field-hint">
              For every agent on this server. Values are encrypted at rest and never shown again; changes
              apply to the next run.
            </p>
          </div>
          <span className="credentials-header-actions">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="credential-add"
              onClick={() => setDraft({ name: "", kind: "llm" })}
            >
              <Icon name="plus" size={14} /> Add credential
            </button>
            <button type="button" className="btn" data-testid="credentials-close" onClick={props.onClose}>
              Back to the designer
            </button>
          </span>
        </header>
        {error ? (
          <p className="run-notice tone-error" role="alert">
            {error}
          </p>
        ) : null}
        {draft ? (
          <CredentialForm
            key={`${draft.kind}:${draft.name}:${draft.replacing ? "r" : "a"}`}
            draft={draft}
            onCancel={() => setDraft(null)}
            onSaved={(saved) => {
              forgetCredentialModels(editor.api, saved.name);
              setDraft(null);
              void load();
            }}
          />
        ) : null}
        {SECTIONS.map((section) => {
          const items = (credentials ?? []).filter((credential) => credential.kind === section.kind);
          return (
            <section key={section.kind} className="credentials-section" aria-label={section.title}>
              <h2 className="credentials-heading">{section.title}</h2>
              <p className="field-hint">{section.hint}</p>
              <ul className="credential-list" role="list" data-testid={`credential-list-${section.kind}`}>
                {credentials === null ? <li className="allow-empty">Loading…</li> : null}
                {credentials !== null && items.length === 0 ? (
                  <li className="allow-empty">
                    None yet.{" "}
                    <button
                      type="button"
                      className="btn-link"
                      onClick={() => setDraft({ name: "", kind: section.kind })}
                    >
                      Add one
                    </button>
                  </li>
                ) : null}
                {items.map((credential) => (
                  <CredentialItem
                    key={`${credential.source}:${credential.name}`}
                    credential={credential}
                    onReplace={() =>
                      setDraft({
                        name: credential.name,
                        kind: credential.kind,
                        replacing: true,
                        ...(credential.baseUrl ? { baseUrl: credential.baseUrl } : {}),
                        ...(credential.models ? { models: credential.models } : {}),
                      })
                    }
                    onDelete={() => void remove(credential.name)}
                  />
                ))}
              </ul>
            </section>
          );
        })}
        <AllowListSection lists={lists} prefill={props.route.allow} onLists={setLists} />
      </div>
    </div>
  );
}
