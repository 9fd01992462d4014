import type { InboxItem } from "@waddle/protocol";
import { useId, useState, type ReactElement } from "react";
import { MenuButton, MenuButtonItem } from "../components/menu-button.js";
import {
  getSnoozeUntil,
  readCustomSnooze,
  SNOOZE_CHOICES,
  toDateTimeLocal,
} from "../inbox/get-snooze-until.js";
import { isSnoozed } from "../inbox/inbox-filter.js";
import { formatStartTime } from "../util/format-time.js";

/** **Assign**: to me, to a key by its name, or to nobody. */
export function AssignMenu(props: {
  item: InboxItem;
  me: string | null;
  /** Key names to suggest (an admin's key list); any name may be typed. */
  keyNames: readonly string[];
  onAssign: (assignee: string | null) => Promise<boolean>;
}): ReactElement {
  const { item, me } = props;
  const [name, setName] = useState("");
  const listId = useId();
  const submit = async () => {
    if (!name.trim()) return;
    if (await props.onAssign(name.trim())) setName("");
  };
  return (
    <MenuButton
      label={item.assignee ? "Reassign" : "Assign"}
      icon="user"
      testId="inbox-assign"
      title="Say who decides this: the inbox's Assigned filter finds it"
    >
      {me ? (
        <MenuButtonItem
          icon="check"
          label={`Me (${me})`}
          detail="I decide this"
          testId="inbox-assign-me"
          disabled={item.assignee === me}
          onSelect={() => void props.onAssign(me)}
        />
      ) : null}
      <form
        className="inbox-menu-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label className="field-label" htmlFor={`${listId}-name`}>
          A key&apos;s name
        </label>
        <div className="inbox-menu-row">
          <input
            id={`${listId}-name`}
            className="input"
            value={name}
            list={listId}
            placeholder="bob"
            data-testid="inbox-assign-name"
            onChange={(event) => setName(event.target.value)}
          />
          {/* a menu item: choosing it closes the menu */}
          <button
            type="submit"
            role="menuitem"
            className="btn btn-small"
            data-testid="inbox-assign-submit"
            disabled={!name.trim()}
          >
            Assign
          </button>
        </div>
        <datalist id={listId}>
          {props.keyNames.map((key) => (
            <option key={key} value={key} />
          ))}
        </datalist>
      </form>
      {item.assignee ? (
        <MenuButtonItem
          icon="close"
          label="Unassign"
          detail={`Take it from ${item.assignee}`}
          testId="inbox-assign-none"
          onSelect={() => void props.onAssign(null)}
        />
      ) : null}
    </MenuButton>
  );
}

/** **Snooze**: hide the item for 15 minutes, an hour, until tomorrow morning, or a time of one's own. */
export function SnoozeMenu(props: {
  item: InboxItem;
  now: number;
  onSnooze: (until: string | null) => Promise<boolean>;
}): ReactElement {
  const [custom, setCustom] = useState(() => toDateTimeLocal(new Date(props.now + 3_600_000)));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const snoozed = isSnoozed(props.item, props.now);
  const submit = async () => {
    const result = readCustomSnooze(custom, new Date());
    if (!result.ok) return setError(result.error);
    setError(null);
    await props.onSnooze(result.until);
  };
  return (
    <MenuButton
      label="Snooze"
      icon="clock"
      testId="inbox-snooze"
      title="Hide it from the open list until later (its time limit still runs)"
    >
      {SNOOZE_CHOICES.map(({ choice, label }) => (
        <MenuButtonItem
          key={choice}
          icon="clock"
          label={label}
          detail={`Until ${formatStartTime(getSnoozeUntil(choice, new Date(props.now)).toISOString(), { now: props.now })}`}
          testId={`inbox-snooze-${choice}`}
          onSelect={() => void props.onSnooze(getSnoozeUntil(choice, new Date()).toISOString())}
        />
      ))}
      <form
        className="inbox-menu-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label className="field-label" htmlFor={id}>
          Until…
        </label>
        <div className="inbox-menu-row">
          <input
            id={id}
            type="datetime-local"
            className="input"
            value={custom}
            data-testid="inbox-snooze-custom"
            aria-invalid={error !== null}
            onChange={(event) => setCustom(event.target.value)}
          />
          <button type="submit" className="btn btn-small" data-testid="inbox-snooze-custom-submit">
            Snooze
          </button>
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
      {snoozed ? (
        <MenuButtonItem
          icon="bolt"
          label="Wake now"
          detail="Back to the open list"
          testId="inbox-snooze-wake"
          onSelect={() => void props.onSnooze(null)}
        />
      ) : null}
    </MenuButton>
  );
}
