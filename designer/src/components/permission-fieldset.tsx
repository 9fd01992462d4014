import { createContext, useContext, type ReactElement, type ReactNode } from "react";
import { meStore, useDenied } from "../store/me-store.js";
import { Icon } from "./icon.js";

const DeniedReason = createContext<string | null>(null);

/**
 * Controls that need `permission`: for a role without it they are all off (a disabled fieldset), each
 * with the reason as its tooltip, under a note that says the view is read-only and why.
 */
export function PermissionFieldset(props: {
  permission: string;
  /** What the role may not do, for the note: "change this agent". */
  action: string;
  children: ReactNode;
}): ReactElement {
  const denied = useDenied(props.permission);
  const me = meStore((state) => state.me);
  return (
    <fieldset
      className="permission-fieldset"
      disabled={denied !== null}
      title={denied ?? undefined}
      data-read-only={denied !== null}
    >
      {denied !== null && me ? (
        <p className="read-only-note" data-testid="read-only-note" role="note">
          <Icon name="lock" size={14} />
          <span>
            <strong>Read only.</strong> Your key ({me.name}, {me.role}) may look but not {props.action}: that
            needs “{props.permission}”.
          </span>
        </p>
      ) : null}
      <DeniedReason.Provider value={denied}>{props.children}</DeniedReason.Provider>
    </fieldset>
  );
}

/** Why the controls around are off (inside a `PermissionFieldset` the role may not use), or null. */
export function useFieldsetDenied(): string | null {
  return useContext(DeniedReason);
}

/**
 * The tooltip of a control that has its own: the reason it is off when it is, else its own (a control's
 * title would hide its fieldset's).
 */
export function useControlTitle(title: string): string {
  return useFieldsetDenied() ?? title;
}
