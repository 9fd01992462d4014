import {
  getFieldBounds,
  getFieldDefaults,
  LlmConfig,
  type ReasoningEffort,
  type ResponseFormat,
} from "@waddle/protocol";
import type { ReactElement } from "react";
import { NumberField, SelectField, TextField } from "../components/fields.js";
import { CredentialField } from "./credential-field.js";
import { ModelField } from "./model-field.js";

interface LlmConfigEditorProps {
  value: LlmConfig;
  onChange: (patch: Partial<LlmConfig>) => void;
  testId?: string;
}

const LLM_BOUNDS = getFieldBounds(LlmConfig);
const LLM_DEFAULTS = getFieldDefaults(LlmConfig);

const EFFORTS = [
  { value: "", label: "Model default" },
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
  { value: "auto", label: "Auto (router picks)" },
] as const;

const FORMATS = [
  { value: "", label: "Auto" },
  { value: "json_object", label: "JSON object" },
  { value: "json_schema", label: "JSON schema" },
  { value: "none", label: "None (prompt only)" },
] as const;

/**
 * Provider, model, endpoint, the credential or the *name* of the key's environment variable, and
 * generation settings.
 */
export function LlmConfigEditor({ value, onChange, testId }: LlmConfigEditorProps): ReactElement {
  const offline = value.provider === "offline";
  return (
    <div className="field-grid" data-testid={testId}>
      <SelectField
        label="Provider"
        value={value.provider}
        hint={
          offline
            ? "The embedded offline model: deterministic, no network, follows the agent's structure."
            : "Any OpenAI-compatible endpoint (OpenAI, Azure, OpenRouter, vLLM, Ollama, LM Studio…)."
        }
        options={[
          { value: "offline", label: "Offline model" },
          { value: "openai", label: "OpenAI-compatible" },
        ]}
        onChange={(provider) =>
          onChange(
            provider === "offline"
              ? { provider, model: "offline" }
              : { provider, model: value.model === "offline" ? "gpt-4o-mini" : value.model },
          )
        }
      />
      <ModelField llm={value} onChange={(model) => onChange({ model })} />
      {offline ? null : (
        <>
          <TextField
            label="Base URL"
            value={value.baseUrl ?? ""}
            onChange={(baseUrl) => onChange({ baseUrl: baseUrl === "" ? undefined : baseUrl })}
            placeholder="https://api.openai.com/v1"
            hint="Leave empty for OpenAI itself."
          />
          <CredentialField value={value.credential} onChange={(credential) => onChange({ credential })} />
          <TextField
            label="API key variable"
            value={value.apiKeyEnv ?? ""}
            onChange={(apiKeyEnv) => onChange({ apiKeyEnv: apiKeyEnv === "" ? undefined : apiKeyEnv })}
            placeholder="OPENAI_API_KEY"
            hint="The name of the server's environment variable that holds the key. Never the key itself."
            monospace
          />
        </>
      )}
      <NumberField
        label="Temperature"
        value={value.temperature}
        {...LLM_BOUNDS.temperature}
        optional={false}
        onChange={(temperature) => onChange({ temperature: temperature ?? LLM_DEFAULTS.temperature })}
      />
      <SelectField<ReasoningEffort | "">
        label="Reasoning effort"
        value={value.reasoningEffort ?? ""}
        options={EFFORTS}
        onChange={(effort) => onChange({ reasoningEffort: effort === "" ? undefined : effort })}
      />
      <SelectField<ResponseFormat | "">
        label="Response format"
        value={value.responseFormat ?? ""}
        options={FORMATS}
        onChange={(format) => onChange({ responseFormat: format === "" ? undefined : format })}
      />
      <NumberField
        label="Max tokens"
        value={value.maxTokens}
        {...LLM_BOUNDS.maxTokens}
        onChange={(maxTokens) => onChange({ maxTokens })}
        placeholder="model default"
      />
      <NumberField
        label="Timeout (ms)"
        value={value.timeoutMs}
        {...LLM_BOUNDS.timeoutMs}
        onChange={(timeoutMs) => onChange({ timeoutMs })}
        placeholder="default"
      />
    </div>
  );
}
