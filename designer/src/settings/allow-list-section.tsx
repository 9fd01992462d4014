import type { AllowListEntry, AllowListResponse } from "@waddle/protocol";
import { useEffect, useId, useRef, useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { Icon } from "../components/icon.js";
import { useEditor } from "../editor/editor-context.js";

const SOURCE_LABELS = {
  environment: "from environment",
  credential: "from a credential",
  stored: "added here",
} as const;

const LISTS = {
  http: {
    title: "Hosts http tools may call",
    hint: "A host (api.example.com), a wildcard for subdomains (*.example.com) or an address, each with an optional :port. Private and loopback addresses only as the address itself.",
    placeholder: "api.example.com",
  },
  llm: {
    title: "LLM endpoints agents may use",
    hint: "An origin such as http://127.0.0.1:11434, or a host (https). An LLM credential's base URL is allowed by storing it.",
    placeholder: "https://api.deepseek.com",
  },
} as const;

/** One allow-list: the environment's and credentials' entries read-only, the added ones removable. */
function AllowList(props: {
  list: "http" | "llm";
  entries: readonly AllowListEntry[];
  prefill: string | undefined;
  onChange: (stored: string[]) => Promise<string | null>;
}): ReactElement {
  const id = useId();
  const { title, hint, placeholder } = LISTS[props.list];
  const [draft, setDraft] = useState(props.prefill ?? "");
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.prefill === undefined) return;
    setDraft(props.prefill);
    input.current?.focus();
  }, [props.prefill]);
  const stored = props.entries.filter((entry) => entry.source === "stored").map((entry) => entry.entry);
  const add = async () => {
    if (!draft.trim()) return;
    const problem = await props.onChange([...stored, draft.trim()]);
    setError(problem);
    if (problem === null) setDraft("");
  };
  return (
    <section className="allow-list" data-testid={`allow-list-${props.list}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="credentials-subtitle">
        {title}
      </h3>
      <p className="field-hint">{hint}</p>
      <ul className="allow-entries" role="list">
        {props.entries.length === 0 ? <li className="allow-empty">None yet.</li> : null}
        {props.entries.map((entry) => (
          <li key={`${entry.source}:${entry.entry}`} className="allow-entry" data-testid="allow-entry">
            <code>{entry.entry}</code>
            <span className={`badge ${entry.source === "stored" ? "badge-accent" : "badge-muted"}`}>
              {SOURCE_LABELS[entry.source]}
            </span>
            {entry.source === "stored" ? (
              <button
                type="button"
                className="btn btn-ghost btn-icon btn-small"
                aria-label={`Remove ${entry.entry}`}
                title={`Remove ${entry.entry}`}
                onClick={() => void props.onChange(stored.filter((item) => item !== entry.entry))}
              >
                <Icon name="trash" size={14} />
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <form
        className="allow-add"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <input
          ref={input}
          className="input mono"
          aria-label={`Add to: ${title}`}
          value={draft}
          placeholder={placeholder}
          data-testid={`allow-input-${props.list}`}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
        />
        <button
          type="submit"
          className="btn"
          disabled={!draft.trim()}
          data-testid={`allow-add-${props.list}`}
        >
          Add host
        </button>
      </form>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** The http and LLM allow-lists; adding a host stores it, and the next run may reach it. */
export function AllowListSection(props: {
  lists: AllowListResponse | null;
  prefill: { list: "http" | "llm"; entry: string } | undefined;
  onLists: (lists: AllowListResponse) => void;
}): ReactElement {
  const editor = useEditor();
  const { lists } = props;
  const save = async (list: "http" | "llm", stored: string[]): Promise<string | null> => {
    if (!lists) return null;
    const other = list === "http" ? "llm" : "http";
    try {
      props.onLists(
        await editor.api.putAllowList({
          [list]: stored,
          [other]: lists[other].filter((entry) => entry.source === "stored").map((entry) => entry.entry),
        } as { http: string[]; llm: string[] }),
      );
      return null;
    } catch (error) {
      return getErrorMessage(error);
    }
  };
  return (
    <section className="credentials-section" aria-label="Allowed hosts">
      <h2 className="credentials-heading">Allowed hosts</h2>
      {lists ? (
        <div className="allow-lists">
          {(["http", "llm"] as const).map((list) => (
            <AllowList
              key={list}
              list={list}
              entries={lists[list]}
              prefill={props.prefill?.list === list ? props.prefill.entry : undefined}
              onChange={(stored) => save(list, stored)}
            />
          ))}
        </div>
      ) : (
        <p className="field-hint">Loading…</p>
      )}
    </section>
  );
}
