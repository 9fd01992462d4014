import { useState, type ReactElement, type ReactNode } from "react";

/**
 * Two selects over ended items (newest first; A the older of the last two by default) and **Compare**:
 * how runs and test runs are picked for a side-by-side view.
 */
export function PairPicker<T extends { id: string }>(props: {
  items: readonly T[];
  /** What an item is called in its select's label: "Run A", "Test run B". */
  noun: string;
  describe(item: T): ReactNode;
  /** Shown instead when fewer than two items have ended. */
  empty: ReactNode;
  intro?: ReactNode;
  className: string;
  ariaLabel: string;
  testIds: { left: string; right: string; submit: string };
  primary?: boolean;
  onCompare(a: string, b: string): void;
}): ReactElement {
  const { items } = props;
  const [left, setLeft] = useState("");
  const [right, setRight] = useState("");
  const a = left || items[1]?.id || "";
  const b = right || items[0]?.id || "";
  if (items.length < 2) return <p className="empty-note">{props.empty}</p>;
  const select = (label: string, value: string, onChange: (id: string) => void, testId: string) => (
    <label className="field">
      <span className="field-label">
        {props.noun} {label}
      </span>
      <select
        className="input"
        value={value}
        data-testid={testId}
        onChange={(event) => onChange(event.target.value)}
      >
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {props.describe(item)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form
      className={props.className}
      aria-label={props.ariaLabel}
      onSubmit={(event) => {
        event.preventDefault();
        if (a && b && a !== b) props.onCompare(a, b);
      }}
    >
      {props.intro}
      {select("A", a, setLeft, props.testIds.left)}
      {select("B", b, setRight, props.testIds.right)}
      <button
        type="submit"
        className={props.primary ? "btn btn-primary btn-small" : "btn btn-small"}
        data-testid={props.testIds.submit}
        disabled={!a || !b || a === b}
      >
        Compare
      </button>
    </form>
  );
}
