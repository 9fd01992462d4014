import type { LlmConfig } from "@waddle/protocol";
import { useId, useState, type ReactElement } from "react";
import { FieldFrame } from "../components/fields.js";
import { useEditor } from "../editor/editor-context.js";
import { getCredentialModels, getModelSource } from "../settings/credential-models.js";

/**
 * The agent's model name, with the models its credential's endpoint lists offered as suggestions. The
 * list is asked for when the field is first focused (one connection test per credential and endpoint,
 * cached), so opening the settings sends nothing; any name can still be typed.
 */
export function ModelField(props: { llm: LlmConfig; onChange: (model: string) => void }): ReactElement {
  const editor = useEditor();
  const listId = useId();
  const source = getModelSource(props.llm);
  const sourceKey = source ? `${source.credential} ${source.baseUrl ?? ""}` : "";
  const [offered, setOffered] = useState<{ key: string; models: string[] } | null>(null);
  const models = offered !== null && offered.key === sourceKey ? offered.models : null;
  const load = () => {
    if (source === undefined || models !== null) return;
    void getCredentialModels(editor.api, source).then((list) => setOffered({ key: sourceKey, models: list }));
  };
  const hint =
    source === undefined
      ? undefined
      : models === null
        ? "Offers the models of the credential's endpoint."
        : models.length > 0
          ? `${models.length} model${models.length === 1 ? "" : "s"} listed by the credential's endpoint.`
          : "The credential's endpoint listed no models: test it on the Credentials page.";
  return (
    <FieldFrame label="Model" {...(hint === undefined ? {} : { hint })}>
      {(id) => (
        <>
          <input
            id={id}
            className="input"
            value={props.llm.model}
            placeholder="gpt-4o-mini"
            list={source === undefined ? undefined : listId}
            autoComplete="off"
            data-testid="llm-model"
            data-models={models?.length ?? undefined}
            onFocus={load}
            onChange={(event) => props.onChange(event.target.value)}
          />
          {source === undefined ? null : (
            <datalist id={listId} data-testid="llm-model-options">
              {(models ?? []).map((model) => (
                <option key={model} value={model} />
              ))}
            </datalist>
          )}
        </>
      )}
    </FieldFrame>
  );
}
