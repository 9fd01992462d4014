import type { TestCredentialResponse } from "@waddle/protocol";
import { useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { Icon } from "../components/icon.js";
import { useEditor } from "../editor/editor-context.js";
import { rememberCredentialTest } from "./credential-models.js";

const SHOWN_MODELS = 6;

/** What a connection test found, in a sentence. */
export function describeCredentialTest(result: TestCredentialResponse): string {
  if (!result.ok) return result.message;
  const host = getHost(result.endpoint);
  if (result.via === "completion")
    return `Connected to ${host}: ${result.models[0] ?? "the model"} answered (the endpoint does not list its models).`;
  if (result.models.length === 0) return `Connected to ${host}; it lists no models.`;
  const shown = result.models.slice(0, SHOWN_MODELS).join(", ");
  const more = result.models.length > SHOWN_MODELS ? ` and ${result.models.length - SHOWN_MODELS} more` : "";
  return `Connected to ${host}: ${result.models.length} model${result.models.length === 1 ? "" : "s"} (${shown}${more}).`;
}

function getHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export type CredentialTestState =
  | { kind: "idle" }
  | { kind: "testing" }
  | { kind: "done"; result: TestCredentialResponse }
  | { kind: "error"; message: string };

/**
 * Test connection for an LLM credential: tries its key on its endpoint (`POST
 * /api/credentials/:name/test`); the models it lists feed the inspector's Model field too.
 */
export function useCredentialTest(name: string): { state: CredentialTestState; run: () => void } {
  const editor = useEditor();
  const [state, setState] = useState<CredentialTestState>({ kind: "idle" });
  const run = () => {
    setState({ kind: "testing" });
    editor.api.testCredential(name).then(
      (result) => {
        rememberCredentialTest(editor.api, { credential: name }, result);
        setState({ kind: "done", result });
      },
      (caught: unknown) => setState({ kind: "error", message: getErrorMessage(caught) }),
    );
  };
  return { state, run };
}

export function CredentialTestButton(props: {
  state: CredentialTestState;
  onTest: () => void;
}): ReactElement {
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid="credential-test"
      disabled={props.state.kind === "testing"}
      onClick={props.onTest}
    >
      {props.state.kind === "testing" ? "Testing…" : "Test connection"}
    </button>
  );
}

/** What the last test found: the models, or what to fix. */
export function CredentialTestResult({ state }: { state: CredentialTestState }): ReactElement | null {
  if (state.kind !== "done" && state.kind !== "error") return null;
  const ok = state.kind === "done" && state.result.ok;
  return (
    <p
      className={`credential-test-result ${ok ? "is-ok" : "is-error"}`}
      role="status"
      data-testid="credential-test-result"
      data-ok={ok}
      data-code={state.kind === "done" && !state.result.ok ? state.result.code : undefined}
    >
      <Icon name={ok ? "check" : "alert"} size={12} />
      <span>{state.kind === "done" ? describeCredentialTest(state.result) : state.message}</span>
    </p>
  );
}
