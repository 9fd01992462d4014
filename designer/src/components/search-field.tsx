import type { ReactElement } from "react";
import { Icon } from "./icon.js";

/** A search box with its magnifier, for filtering a list as one types. */
export function SearchField(props: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
  testId?: string;
}): ReactElement {
  return (
    <div className="search">
      <Icon name="search" size={14} />
      <input
        className="input"
        type="search"
        placeholder={props.placeholder}
        aria-label={props.label}
        value={props.value}
        data-testid={props.testId}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}
