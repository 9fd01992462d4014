import { getFieldBounds, getFieldDefaults, HttpImpl } from "@waddle/protocol";
import type { ReactElement } from "react";
import type { z } from "zod";
import { JsonField, NumberField, SelectField, TextField } from "../components/fields.js";
import { KeyValueField } from "../components/key-value-field.js";

type Http = z.infer<typeof HttpImpl>;
type HeaderValue = Http["headers"][string];

const HTTP_BOUNDS = getFieldBounds(HttpImpl);
const HTTP_DEFAULTS = getFieldDefaults(HttpImpl);

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Method, URL template, headers (literal or a server-held secret), query, body, limits. */
export function HttpImplEditor({
  impl,
  onChange,
}: {
  impl: Http;
  onChange: (patch: Partial<Http>, key: string) => void;
}): ReactElement {
  const bodyMode = impl.body === "args" || impl.body === "none" ? impl.body : "template";
  return (
    <>
      <SelectField
        label="Method"
        value={impl.method}
        options={METHODS.map((method) => ({ value: method, label: method }))}
        onChange={(method) => onChange({ method }, "method")}
      />
      <TextField
        label="URL"
        value={impl.url}
        onChange={(url) => onChange({ url }, "url")}
        hint="{name} is filled from the args. The host must be on the server's allow-list."
        monospace
        testId="http-url"
      />
      <KeyValueField<HeaderValue>
        label="Headers"
        entries={impl.headers}
        onChange={(headers) => onChange({ headers }, "headers")}
        createValue={() => ""}
        keyPlaceholder="Header"
        addLabel="Header"
        hint="Secret headers name a server-held secret ({secret: NAME} → WADDLE_SECRET_NAME); a spec never holds keys."
        renderValue={(value, setValue) => (
          <div className="header-value">
            <select
              className="input"
              aria-label="Header value kind"
              value={typeof value === "string" ? "text" : "secret"}
              onChange={(event) => setValue(event.target.value === "secret" ? { secret: "API_KEY" } : "")}
            >
              <option value="text">text</option>
              <option value="secret">secret</option>
            </select>
            <input
              className="input mono"
              aria-label="Header value"
              value={typeof value === "string" ? value : value.secret}
              placeholder={typeof value === "string" ? "value" : "SECRET_NAME"}
              onChange={(event) =>
                setValue(typeof value === "string" ? event.target.value : { secret: event.target.value })
              }
            />
          </div>
        )}
      />
      <KeyValueField<string>
        label="Query parameters"
        entries={impl.query}
        onChange={(query) => onChange({ query }, "query")}
        createValue={() => "{query}"}
        keyPlaceholder="param"
        addLabel="Parameter"
        renderValue={(value, setValue) => (
          <input
            className="input mono"
            aria-label="Parameter value"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      />
      <SelectField
        label="Body"
        value={bodyMode}
        options={[
          { value: "args", label: "The args as JSON" },
          { value: "none", label: "No body" },
          { value: "template", label: "A template" },
        ]}
        onChange={(mode) => onChange({ body: mode === "template" ? {} : mode }, "body")}
      />
      {typeof impl.body === "object" ? (
        <JsonField
          label="Body template"
          value={impl.body}
          onChange={(body) => onChange({ body: body as Record<string, unknown> }, "body")}
          check={(value) =>
            typeof value === "object" && value !== null && !Array.isArray(value)
              ? null
              : "Must be a JSON object."
          }
        />
      ) : null}
      <NumberField
        label="Timeout (ms)"
        value={impl.timeoutMs}
        {...HTTP_BOUNDS.timeoutMs}
        onChange={(timeoutMs) => onChange({ timeoutMs }, "timeoutMs")}
        placeholder="the tool's timeout"
      />
      <NumberField
        label="Max response bytes"
        value={impl.maxResponseBytes}
        {...HTTP_BOUNDS.maxResponseBytes}
        optional={false}
        onChange={(maxResponseBytes) =>
          onChange(
            { maxResponseBytes: maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes },
            "maxResponseBytes",
          )
        }
      />
    </>
  );
}
