import type { ReactElement } from "react";
import { Icon } from "../components/icon.js";
import { useControlTitle, useFieldsetDenied } from "../components/permission-fieldset.js";
import { useDraftText } from "../components/use-draft-text.js";
import type { FieldPath } from "../schema/schema-field-edits.js";
import { getFieldProblem } from "../schema/get-field-problem.js";
import { FIELD_TYPES, type FieldType, type SchemaField } from "../schema/schema-fields.js";
import { formatEnumText, formatValueText, parseEnumText, parseValueText } from "../schema/value-text.js";

/** What a row can ask its editor to do to the field at its path. */
export interface FieldRowActions {
  update: (path: FieldPath, patch: Partial<SchemaField>) => void;
  remove: (path: FieldPath) => void;
  move: (path: FieldPath, delta: -1 | 1) => void;
  add: (parentPath: FieldPath) => void;
  /** Whether the row's details are open; the editor keeps this so that it follows moved fields. */
  isOpen: (path: FieldPath) => boolean;
  toggleOpen: (path: FieldPath) => void;
}

interface FieldRowProps {
  field: SchemaField;
  path: FieldPath;
  siblingNames: readonly string[];
  actions: FieldRowActions;
  isItem?: boolean;
  testId: string;
}

function NameInput({ field, path, siblingNames, actions, testId }: FieldRowProps): ReactElement {
  const draft = useDraftText({
    value: field.name,
    format: (name) => name,
    parse: (text) => {
      const name = text.trim();
      if (name === "") return { ok: false, error: "Name the field." };
      if (name !== field.name && siblingNames.includes(name))
        return { ok: false, error: `Another field is named “${name}”.` };
      return { ok: true, value: name };
    },
    onChange: (name) => actions.update(path, { name }),
  });
  const title = useControlTitle(draft.error ?? "Field name");
  return (
    <input
      className={`input mono${draft.error ? " is-invalid" : ""}`}
      aria-label="Field name"
      title={title}
      value={draft.text}
      data-testid={`${testId}-name`}
      onChange={(event) => draft.setText(event.target.value)}
    />
  );
}

function ValueInput(props: {
  label: string;
  type: FieldType;
  value: unknown;
  onChange: (value: unknown) => void;
  isEnum?: boolean;
  testId: string;
}): ReactElement {
  const draft = useDraftText<unknown>({
    value: props.value,
    format: (value) =>
      props.isEnum
        ? formatEnumText(props.type, value as unknown[] | undefined)
        : formatValueText(props.type, value),
    parse: (text) =>
      props.isEnum
        ? parseEnumText(props.type, text)
        : text === ""
          ? { ok: true, value: undefined }
          : parseValueText(props.type, text),
    isEqual: (a, b) => JSON.stringify(a) === JSON.stringify(b),
    onChange: props.onChange,
  });
  return (
    <label className="mini-field">
      <span>{props.label}</span>
      <input
        className={`input${draft.error ? " is-invalid" : ""}`}
        value={draft.text}
        title={draft.error ?? undefined}
        placeholder={props.isEnum ? "a, b, c" : "none"}
        data-testid={props.testId}
        onChange={(event) => draft.setText(event.target.value)}
      />
      {draft.error ? <span className="field-error">{draft.error}</span> : null}
    </label>
  );
}

/** One field of the schema editor: name, type, required; details (description, default, enum); children. */
export function SchemaFieldRow(props: FieldRowProps): ReactElement {
  const { field, path, actions, isItem, testId } = props;
  // read-only (a viewer): every row shows its details, since the toggle is off with the other controls
  const denied = useFieldsetDenied();
  const open = actions.isOpen(path) || denied !== null;
  const problem = getFieldProblem(field);
  const childNames = field.fields.map((child) => child.name);
  return (
    <div className="schema-field" data-testid={testId}>
      <div className="schema-field-row">
        {isItem ? <span className="schema-item-label">items</span> : <NameInput {...props} />}
        <select
          className="input schema-type"
          aria-label="Type"
          value={field.type}
          data-testid={`${testId}-type`}
          onChange={(event) => actions.update(path, { type: event.target.value as FieldType })}
        >
          {FIELD_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        {isItem ? null : (
          <label
            className="schema-required"
            title={denied ?? "Required: the tool cannot be called without it"}
          >
            <input
              type="checkbox"
              checked={field.required}
              data-testid={`${testId}-required`}
              onChange={(event) => actions.update(path, { required: event.target.checked })}
            />
            req
          </label>
        )}
        <button
          type="button"
          className={`icon-btn${open ? " is-active" : ""}`}
          aria-expanded={open}
          title={denied ?? "Description, default, allowed values"}
          aria-label="Details"
          onClick={() => actions.toggleOpen(path)}
        >
          <Icon name={open ? "up" : "down"} size={14} />
        </button>
        {isItem ? null : (
          <button
            type="button"
            className="icon-btn is-danger"
            title={denied ?? "Remove field"}
            aria-label={`Remove ${field.name}`}
            data-testid={`${testId}-remove`}
            onClick={() => actions.remove(path)}
          >
            <Icon name="close" size={14} />
          </button>
        )}
      </div>
      {problem ? (
        <p className="field-error" role="alert" data-testid={`${testId}-problem`}>
          {problem}
        </p>
      ) : null}
      {open ? (
        <div className="schema-details">
          <label className="mini-field mini-field-wide">
            <span>Description</span>
            <input
              className="input"
              value={field.description}
              placeholder="What this field means (the LLM reads it)"
              onChange={(event) => actions.update(path, { description: event.target.value })}
            />
          </label>
          <ValueInput
            label="Default"
            type={field.type}
            value={field.default}
            testId={`${testId}-default`}
            onChange={(value) => actions.update(path, { default: value })}
          />
          <ValueInput
            label="Allowed values"
            type={field.type}
            value={field.enum}
            isEnum
            testId={`${testId}-enum`}
            onChange={(value) => actions.update(path, { enum: value as unknown[] | undefined })}
          />
          {isItem ? null : (
            <div className="schema-move">
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => actions.move(path, -1)}
              >
                <Icon name="up" size={12} /> Move up
              </button>
              <button type="button" className="btn btn-ghost btn-small" onClick={() => actions.move(path, 1)}>
                <Icon name="down" size={12} /> Move down
              </button>
            </div>
          )}
        </div>
      ) : null}
      {field.type === "object" ? (
        <div className="schema-children">
          {field.fields.map((child, index) => (
            <SchemaFieldRow
              key={index}
              field={child}
              path={[...path, index]}
              siblingNames={childNames}
              actions={actions}
              testId={`${testId}-${index}`}
            />
          ))}
          <button type="button" className="btn btn-ghost btn-small" onClick={() => actions.add(path)}>
            <Icon name="plus" size={12} /> Property
          </button>
        </div>
      ) : null}
      {field.type === "array" && field.items ? (
        <div className="schema-children">
          <SchemaFieldRow
            field={field.items}
            path={[...path, "items"]}
            siblingNames={[]}
            actions={actions}
            isItem
            testId={`${testId}-items`}
          />
        </div>
      ) : null}
    </div>
  );
}
