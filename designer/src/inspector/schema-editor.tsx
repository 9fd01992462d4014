import { parseJson, type JsonSchema } from "@waddle/protocol";
import { useMemo, useState, type ReactElement } from "react";
import { Icon } from "../components/icon.js";
import { Tabs } from "../components/tabs.js";
import { isSameJson, useDraftText } from "../components/use-draft-text.js";
import {
  addField,
  getFieldAt,
  moveField,
  removeField,
  updateField,
  type FieldPath,
} from "../schema/schema-field-edits.js";
import {
  getSchemaFromModel,
  getSchemaModel,
  type SchemaField,
  type SchemaModel,
} from "../schema/schema-fields.js";
import {
  getPathKey,
  moveOpenPath,
  removeOpenPath,
  toggleOpenPath,
  type OpenFieldPaths,
} from "../schema/open-field-paths.js";
import { SchemaFieldRow, type FieldRowActions } from "./schema-field-row.js";

interface SchemaEditorProps {
  schema: JsonSchema;
  onChange: (schema: JsonSchema) => void;
  testId: string;
  emptyText: string;
}

function RawSchemaTab({ schema, onChange, testId }: Omit<SchemaEditorProps, "emptyText">): ReactElement {
  const draft = useDraftText<JsonSchema>({
    value: schema,
    format: (value) => JSON.stringify(value, null, 2),
    parse: (text) => {
      const parsed = parseJson(text);
      if (!parsed.ok) return { ok: false, error: `Not valid JSON: ${parsed.error}` };
      const value = parsed.value;
      if (typeof value !== "object" || value === null || Array.isArray(value))
        return { ok: false, error: 'A schema is a JSON object, e.g. {"type": "object", "properties": {}}.' };
      return { ok: true, value: value as JsonSchema };
    },
    isEqual: isSameJson,
    onChange,
  });
  return (
    <div className={`field${draft.error ? " field-invalid" : ""}`}>
      <textarea
        className="input mono schema-raw"
        rows={Math.min(18, Math.max(6, draft.text.split("\n").length))}
        spellCheck={false}
        aria-label="Raw JSON Schema"
        value={draft.text}
        data-testid={`${testId}-raw`}
        onChange={(event) => draft.setText(event.target.value)}
      />
      {draft.error ? (
        <p className="field-error" role="alert" data-testid={`${testId}-raw-error`}>
          {draft.error} The fields keep the last valid schema.
        </p>
      ) : (
        <p className="field-hint">Edits here update the field list as soon as they are valid JSON.</p>
      )}
    </div>
  );
}

function getSiblingCount(model: SchemaModel, path: FieldPath): number {
  const parent = path.length > 1 ? getFieldAt(model, path.slice(0, -1)) : undefined;
  return (parent ? parent.fields : model.fields).length;
}

/** An args or out schema as a field list, with a raw JSON Schema tab kept in sync. */
export function SchemaEditor({ schema, onChange, testId, emptyText }: SchemaEditorProps): ReactElement {
  const [tab, setTab] = useState<"fields" | "json">("fields");
  const [open, setOpen] = useState<OpenFieldPaths>(() => new Set());
  const model = useMemo(() => getSchemaModel(schema), [schema]);
  const actions = useMemo<FieldRowActions>(() => {
    const commit = (next: SchemaModel) => onChange(getSchemaFromModel(next));
    return {
      update: (path: FieldPath, patch: Partial<SchemaField>) => commit(updateField(model, path, patch)),
      remove: (path: FieldPath) => {
        setOpen((current) => removeOpenPath(current, path));
        commit(removeField(model, path));
      },
      move: (path: FieldPath, delta: -1 | 1) => {
        const siblingCount = getSiblingCount(model, path);
        setOpen((current) => moveOpenPath({ open: current, path, delta, siblingCount }));
        commit(moveField(model, path, delta));
      },
      add: (parentPath: FieldPath) => commit(addField(model, parentPath)),
      isOpen: (path: FieldPath) => open.has(getPathKey(path)),
      toggleOpen: (path: FieldPath) => setOpen((current) => toggleOpenPath(current, path)),
    };
  }, [model, onChange, open]);
  const names = model.fields.map((field) => field.name);
  return (
    <div className="schema-editor" data-testid={testId}>
      <Tabs
        label="Schema view"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: "fields", label: "Fields", testId: `${testId}-tab-fields` },
          { value: "json", label: "JSON", testId: `${testId}-tab-json` },
        ]}
      />
      {tab === "json" ? (
        <RawSchemaTab schema={schema} onChange={onChange} testId={testId} />
      ) : (
        <div className="schema-fields">
          {model.fields.length === 0 ? <p className="empty-note">{emptyText}</p> : null}
          {model.fields.map((field, index) => (
            <SchemaFieldRow
              key={index}
              field={field}
              path={[index]}
              siblingNames={names}
              actions={actions}
              testId={`${testId}-field-${index}`}
            />
          ))}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            data-testid={`${testId}-add`}
            onClick={() => actions.add([])}
          >
            <Icon name="plus" size={14} /> Add field
          </button>
        </div>
      )}
    </div>
  );
}
