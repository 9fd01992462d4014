import type { CredentialInfo } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { SelectField } from "../components/fields.js";
import { useEditor } from "../editor/editor-context.js";

/** The LLM credentials of this server, loaded once per field (null until they arrive). */
function useLlmCredentials(): CredentialInfo[] | null {
  const editor = useEditor();
  const [credentials, setCredentials] = useState<CredentialInfo[] | null>(null);
  useEffect(() => {
    let current = true;
    editor.api.listCredentials().then(
      (all) => current && setCredentials(all.filter((entry) => entry.kind === "llm" && !entry.shadowed)),
      () => current && setCredentials([]),
    );
    return () => {
      current = false;
    };
  }, [editor]);
  return credentials;
}

/** Picks `llm.credential` from the server's LLM credentials; a name that does not exist stays, marked. */
export function CredentialField(props: {
  value: string | undefined;
  onChange: (credential: string | undefined) => void;
}): ReactElement {
  const credentials = useLlmCredentials();
  const names = (credentials ?? []).map((entry) => entry.name);
  const options = [
    { value: "", label: "None (API key variable, else OPENAI_API_KEY)" },
    ...(credentials ?? []).map((entry) => ({
      value: entry.name,
      label: `${entry.name}${entry.baseUrl ? ` · ${new URL(entry.baseUrl).host}` : ""}`,
    })),
    ...(props.value && credentials !== null && !names.includes(props.value)
      ? [{ value: props.value, label: `${props.value} (not on this server)` }]
      : []),
    ...(props.value && credentials === null ? [{ value: props.value, label: props.value }] : []),
  ];
  return (
    <SelectField
      label="Credential"
      value={props.value ?? ""}
      options={options}
      testId="llm-credential"
      hint="An LLM credential from the Credentials page: its key, and its base URL when Base URL is empty."
      onChange={(credential) => props.onChange(credential === "" ? undefined : credential)}
    />
  );
}
