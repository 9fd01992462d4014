import type { ReactElement } from "react";
import { FieldFrame } from "../../components/fields.js";
import type { ArgsFormField, ArgsFormValues } from "./args-form-model.js";

function getHint(field: ArgsFormField): string | undefined {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  if (field.kind === "lines") parts.push(`One ${field.itemType ?? "value"} a line.`);
  if (field.kind === "json") parts.push(field.jsonType ? `JSON ${field.jsonType}.` : "Any JSON value.");
  const { minimum, maximum } = field.schema;
  if (typeof minimum === "number" || typeof maximum === "number")
    parts.push(
      `${typeof minimum === "number" ? minimum : "…"} to ${typeof maximum === "number" ? maximum : "…"}.`,
    );
  return parts.length > 0 ? parts.join(" ") : undefined;
}

function FieldControl(props: {
  id: string;
  field: ArgsFormField;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
}): ReactElement {
  const { id, field, value, invalid, onChange } = props;
  const common = {
    id,
    "aria-invalid": invalid,
    "aria-required": field.required,
    "data-testid": `args-field-${field.name}`,
  };
  switch (field.kind) {
    case "enum":
      return (
        <select
          {...common}
          className="input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {field.required && value !== "" ? null : <option value="">—</option>}
          {(field.options ?? []).map((option, index) => (
            <option key={index} value={String(index)}>
              {typeof option === "string" ? option : JSON.stringify(option)}
            </option>
          ))}
        </select>
      );
    case "boolean":
      return field.required ? (
        <input
          {...common}
          type="checkbox"
          className="args-checkbox"
          checked={value === "true"}
          onChange={(event) => onChange(event.target.checked ? "true" : "false")}
        />
      ) : (
        <select
          {...common}
          className="input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">—</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case "number":
    case "integer":
      return (
        <input
          {...common}
          className="input"
          inputMode={field.kind === "integer" ? "numeric" : "decimal"}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "text":
    case "lines":
    case "json":
      return (
        <textarea
          {...common}
          className={`input${field.kind === "json" ? " mono" : ""}`}
          rows={field.kind === "text" ? 5 : 3}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    default:
      return (
        <input
          {...common}
          className="input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

/** The fields of a tool's args, generated from its schema; `errors` come from `readArgsForm`. */
export function ArgsForm(props: {
  fields: readonly ArgsFormField[];
  values: ArgsFormValues;
  errors: Readonly<Record<string, string>>;
  onChange: (name: string, value: string) => void;
}): ReactElement {
  return (
    <div className="args-form" data-testid="args-form">
      {props.fields.map((field) => (
        <FieldFrame
          key={field.name}
          label={`${field.name}${field.required ? " *" : ""}`}
          hint={getHint(field)}
          error={props.errors[field.name] ?? null}
        >
          {(id) => (
            <FieldControl
              id={id}
              field={field}
              value={props.values[field.name] ?? ""}
              invalid={props.errors[field.name] !== undefined}
              onChange={(value) => props.onChange(field.name, value)}
            />
          )}
        </FieldFrame>
      ))}
    </div>
  );
}
