import type { ReactElement, ReactNode } from "react";

interface TabsProps<T extends string> {
  label: string;
  value: T;
  onChange: (value: T) => void;
  tabs: readonly { value: T; label: ReactNode; testId?: string; title?: string }[];
}

/** A row of tabs (ARIA tablist). */
export function Tabs<T extends string>({ label, value, onChange, tabs }: TabsProps<T>): ReactElement {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          role="tab"
          aria-selected={tab.value === value}
          className={`tab${tab.value === value ? " is-active" : ""}`}
          data-testid={tab.testId}
          title={tab.title}
          onClick={() => onChange(tab.value)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
