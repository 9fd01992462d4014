import { parseJson, type ParseResult } from "@waddle/protocol";
import { useId, type ReactElement, type ReactNode } from "react";
import { isSameJson, useDraftText } from "./use-draft-text.js";
import { getNumberProblem } from "../schema/get-number-problem.js";

interface FieldFrameProps {
  label: string;
  hint?: string;
  error?: string | null;
  children: (id: string) => ReactNode;
  inline?: boolean;
}

/** A label, the control, and a hint or error under it. */
export function FieldFrame({ label, hint, error, children, inline }: FieldFrameProps): ReactElement {
  const id = useId();
  return (
    <div className={`field${inline ? " field-inline" : ""}${error ? " field-invalid" : ""}`}>
      <label className="field-label" htmlFor={id} title={hint}>
        {label}
      </label>
      {children(id)}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : hint && !inline ? (
        <p className="field-hint">{hint}</p>
      ) : null}
    </div>
  );
}

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  placeholder?: string;
  testId?: string;
  multiline?: boolean;
  rows?: number;
  monospace?: boolean;
  error?: string | null;
  /** Shown but not editable (an id fixed once other things refer to it). */
  readOnly?: boolean;
}

export function TextField(props: TextFieldProps): ReactElement {
  const className = `input${props.monospace ? " mono" : ""}`;
  return (
    <FieldFrame label={props.label} hint={props.hint} error={props.error}>
      {(id) =>
        props.multiline ? (
          <textarea
            id={id}
            className={className}
            rows={props.rows ?? 3}
            value={props.value}
            placeholder={props.placeholder}
            readOnly={props.readOnly}
            data-testid={props.testId}
            onChange={(event) => props.onChange(event.target.value)}
          />
        ) : (
          <input
            id={id}
            className={className}
            value={props.value}
            placeholder={props.placeholder}
            readOnly={props.readOnly}
            data-testid={props.testId}
            onChange={(event) => props.onChange(event.target.value)}
          />
        )
      }
    </FieldFrame>
  );
}

interface NumberFieldProps {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  hint?: string;
  placeholder?: string;
  /** Limits, usually the field's `getFieldBounds` from the protocol's schema. */
  integer?: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
  /** When false, an empty box is an error instead of "unset". */
  optional?: boolean;
  testId?: string;
}

export function NumberField(props: NumberFieldProps): ReactElement {
  const { optional = true } = props;
  const parse = (text: string): ParseResult<number | undefined> => {
    if (text.trim() === "")
      return optional ? { ok: true, value: undefined } : { ok: false, error: "Enter a number." };
    const value = Number(text);
    if (!Number.isFinite(value)) return { ok: false, error: `"${text}" is not a number.` };
    const problem = getNumberProblem(value, props);
    return problem ? { ok: false, error: problem } : { ok: true, value };
  };
  const draft = useDraftText({
    value: props.value,
    format: (value) => (value === undefined ? "" : String(value)),
    parse,
    onChange: props.onChange,
  });
  return (
    <FieldFrame label={props.label} hint={props.hint} error={draft.error}>
      {(id) => (
        <input
          id={id}
          className="input"
          inputMode="decimal"
          value={draft.text}
          placeholder={props.placeholder}
          data-testid={props.testId}
          aria-invalid={draft.error ? true : undefined}
          onChange={(event) => draft.setText(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

interface ToggleFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
  testId?: string;
  disabled?: boolean;
}

/** A switch with its label on the left and the hint as a tooltip and line below. */
export function ToggleField(props: ToggleFieldProps): ReactElement {
  const id = useId();
  return (
    <div className="toggle-field">
      <div className="toggle-text">
        <label htmlFor={id} className="field-label">
          {props.label}
        </label>
        {props.hint ? <p className="field-hint">{props.hint}</p> : null}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={props.checked}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(event) => props.onChange(event.target.checked)}
      />
    </div>
  );
}

interface SelectFieldProps<T extends string> {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  hint?: string;
  testId?: string;
}

export function SelectField<T extends string>(props: SelectFieldProps<T>): ReactElement {
  return (
    <FieldFrame label={props.label} hint={props.hint}>
      {(id) => (
        <select
          id={id}
          className="input"
          value={props.value}
          data-testid={props.testId}
          onChange={(event) => props.onChange(event.target.value as T)}
        >
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

interface ListFieldProps {
  label: string;
  value: readonly string[];
  onChange: (value: string[]) => void;
  hint?: string;
  placeholder?: string;
  testId?: string;
}

/** A comma-separated list of words (tags, scopes, tool names). */
export function ListField(props: ListFieldProps): ReactElement {
  const draft = useDraftText<readonly string[]>({
    value: props.value,
    format: (value) => value.join(", "),
    parse: (text) => ({
      ok: true,
      value: text
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== ""),
    }),
    isEqual: isSameJson,
    onChange: (value) => props.onChange([...value]),
  });
  return (
    <TextField
      label={props.label}
      hint={props.hint}
      placeholder={props.placeholder}
      testId={props.testId}
      value={draft.text}
      onChange={draft.setText}
    />
  );
}

interface JsonFieldProps {
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  hint?: string;
  rows?: number;
  testId?: string;
  /** Extra check of the parsed value (e.g. "must be an object"). */
  check?: (value: unknown) => string | null;
}

/** JSON typed by hand: stored only when it parses (and passes `check`); the error shows until then. */
export function JsonField(props: JsonFieldProps): ReactElement {
  const draft = useDraftText<unknown>({
    value: props.value,
    format: (value) => JSON.stringify(value, null, 2) ?? "",
    parse: (text) => {
      const parsed = parseJson(text);
      if (!parsed.ok) return { ok: false, error: `Not valid JSON: ${parsed.error}` };
      const problem = props.check?.(parsed.value) ?? null;
      return problem ? { ok: false, error: problem } : parsed;
    },
    isEqual: isSameJson,
    onChange: props.onChange,
  });
  return (
    <TextField
      label={props.label}
      hint={props.hint}
      multiline
      monospace
      rows={props.rows ?? 5}
      testId={props.testId}
      value={draft.text}
      onChange={draft.setText}
      error={draft.error}
    />
  );
}
