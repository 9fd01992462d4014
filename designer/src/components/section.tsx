import type { ReactElement, ReactNode } from "react";

/** A collapsible block of fields with a title and an optional one-line summary. */
export function Section(props: {
  title: string;
  summary?: ReactNode;
  children: ReactNode;
  defaultOpen?: boolean;
  testId?: string;
}): ReactElement {
  return (
    <details className="section" open={props.defaultOpen ?? true} data-testid={props.testId}>
      <summary className="section-head">
        <span className="section-title">{props.title}</span>
        {props.summary ? <span className="section-summary">{props.summary}</span> : null}
      </summary>
      <div className="section-body">{props.children}</div>
    </details>
  );
}
