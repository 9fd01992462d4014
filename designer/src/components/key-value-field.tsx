import type { ReactElement, ReactNode } from "react";
import { Icon } from "./icon.js";
import { useControlTitle } from "./permission-fieldset.js";

interface KeyValueFieldProps<V> {
  label: string;
  hint?: string;
  entries: Record<string, V>;
  onChange: (entries: Record<string, V>) => void;
  /** The value a new row starts with. */
  createValue: () => V;
  renderValue: (value: V, setValue: (value: V) => void, key: string) => ReactNode;
  keyPlaceholder?: string;
  addLabel?: string;
  testId?: string;
}

/** Rows of key → value (headers, query parameters, join injections). Renaming a key keeps its place. */
export function KeyValueField<V>(props: KeyValueFieldProps<V>): ReactElement {
  const rows = Object.entries(props.entries);
  const replace = (index: number, key: string, value: V) => {
    const next: Record<string, V> = {};
    rows.forEach(([oldKey, oldValue], i) => {
      if (i === index) next[key] = value;
      else if (oldKey !== key) next[oldKey] = oldValue;
    });
    props.onChange(next);
  };
  const remove = (index: number) => props.onChange(Object.fromEntries(rows.filter((_, i) => i !== index)));
  const add = () => {
    let key = "name";
    for (let n = 2; key in props.entries; n += 1) key = `name_${n}`;
    props.onChange({ ...props.entries, [key]: props.createValue() });
  };
  const removeTitle = useControlTitle("Remove");
  return (
    <div className="field kv-field" data-testid={props.testId}>
      <span className="field-label" title={props.hint}>
        {props.label}
      </span>
      {rows.length === 0 ? <p className="field-hint">None.</p> : null}
      {rows.map(([key, value], index) => (
        <div className="kv-row" key={index}>
          <input
            className="input mono"
            aria-label={`${props.label} name`}
            value={key}
            placeholder={props.keyPlaceholder}
            onChange={(event) => replace(index, event.target.value, value)}
          />
          <div className="kv-value">{props.renderValue(value, (next) => replace(index, key, next), key)}</div>
          <button
            type="button"
            className="icon-btn"
            aria-label={`Remove ${key}`}
            title={removeTitle}
            onClick={() => remove(index)}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-ghost btn-small" onClick={add}>
        <Icon name="plus" size={14} /> {props.addLabel ?? "Add"}
      </button>
      {props.hint ? <p className="field-hint">{props.hint}</p> : null}
    </div>
  );
}
