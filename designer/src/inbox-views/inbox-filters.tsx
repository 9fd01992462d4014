import type { InboxItemKind, InboxState } from "@waddle/protocol";
import type { ReactElement } from "react";
import { SelectField } from "../components/fields.js";
import { useServer } from "../editor/editor-context.js";
import { DEFAULT_INBOX_FILTER, isFiltered, type InboxFilter } from "../inbox/inbox-filter.js";

const KINDS: readonly { value: InboxItemKind | ""; label: string }[] = [
  { value: "", label: "Pauses and merges" },
  { value: "pause", label: "Pauses (approvals, input)" },
  { value: "merge", label: "Merges" },
];
const STATES: readonly { value: InboxState; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "snoozed", label: "Snoozed" },
  { value: "all", label: "Open and snoozed" },
];

/** The Inbox's filters: agent, kind, assignee (me, unassigned, a key) and state. */
export function InboxFilters(props: {
  filter: InboxFilter;
  me: string | null;
  /** Key names to offer as assignees (an admin's key list, and the names on the items). */
  keyNames: readonly string[];
  onChange: (patch: Partial<InboxFilter>) => void;
}): ReactElement {
  const { filter } = props;
  const agents = useServer((state) => state.agents);
  const assignees = [
    { value: "", label: "Anyone or nobody" },
    ...(props.me ? [{ value: "me", label: `Me (${props.me})` }] : []),
    { value: "none", label: "Unassigned" },
    ...props.keyNames
      .filter((name) => name !== props.me && name !== "none" && name !== "me")
      .map((name) => ({ value: name, label: name })),
  ];
  // an assignee chosen before the list knew it (a link, a name typed) stays offered
  if (filter.assignee && !assignees.some((option) => option.value === filter.assignee))
    assignees.push({ value: filter.assignee, label: filter.assignee });
  return (
    <div className="inbox-filters" role="group" aria-label="Filters">
      <SelectField
        label="Agent"
        value={filter.agentId ?? ""}
        testId="inbox-filter-agent"
        options={[
          { value: "", label: "All agents" },
          ...agents.map((agent) => ({ value: agent.id, label: agent.name })),
        ]}
        onChange={(agentId) => props.onChange({ agentId: agentId || null })}
      />
      <SelectField
        label="Kind"
        value={filter.kind ?? ""}
        testId="inbox-filter-kind"
        options={KINDS}
        onChange={(kind) => props.onChange({ kind: kind || null })}
      />
      <SelectField
        label="Assigned to"
        value={filter.assignee ?? ""}
        testId="inbox-filter-assignee"
        options={assignees}
        onChange={(assignee) => props.onChange({ assignee: assignee || null })}
      />
      <SelectField
        label="State"
        value={filter.state}
        testId="inbox-filter-state"
        options={STATES}
        onChange={(state) => props.onChange({ state })}
      />
      {isFiltered(filter) ? (
        <button
          type="button"
          className="btn btn-ghost btn-small inbox-filters-clear"
          data-testid="inbox-filter-clear"
          onClick={() => props.onChange(DEFAULT_INBOX_FILTER)}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
