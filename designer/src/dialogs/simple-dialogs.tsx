import { useState, type ReactElement } from "react";
import { Dialog, DialogActions } from "../components/dialog.js";
import type { DialogMap } from "../store/ui-store.js";

interface DialogComponentProps<K extends keyof DialogMap> {
  props: DialogMap[K]["props"];
  close: (result: DialogMap[K]["result"] | null) => void;
}

/** Asks yes or no. */
export function ConfirmDialog({ props, close }: DialogComponentProps<"confirm">): ReactElement {
  return (
    <Dialog
      title={props.title}
      size="small"
      testId="confirm-dialog"
      onClose={() => close(null)}
      footer={
        <DialogActions
          onCancel={() => close(false)}
          onAccept={() => close(true)}
          acceptLabel={props.confirmLabel}
          acceptTestId="confirm-accept"
          danger={props.danger ?? false}
          autoFocus
        />
      }
    >
      <p>{props.message}</p>
    </Dialog>
  );
}

/** Someone saved a newer version: reload theirs or save ours on top. */
export function ConflictDialog({ props, close }: DialogComponentProps<"conflict">): ReactElement {
  return (
    <Dialog
      title="This agent changed on the server"
      size="small"
      testId="conflict-dialog"
      onClose={() => close(null)}
      footer={
        <>
          <button type="button" className="btn" data-testid="conflict-reload" onClick={() => close("reload")}>
            Reload version {props.currentVersion}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="conflict-overwrite"
            onClick={() => close("overwrite")}
          >
            Save mine as version {props.currentVersion + 1}
          </button>
        </>
      }
    >
      <p>
        You edited version {props.baseVersion}, but version {props.currentVersion} was saved since (in another
        tab, or by someone else).
      </p>
      <ul className="tips">
        <li>
          <strong>Reload</strong> opens version {props.currentVersion} and drops your unsaved changes.
        </li>
        <li>
          <strong>Save mine</strong> keeps your version as the newest; version {props.currentVersion} stays in
          the history.
        </li>
      </ul>
    </Dialog>
  );
}

/** One line of text (a new name). */
export function RenameDialog({ props, close }: DialogComponentProps<"rename">): ReactElement {
  const [value, setValue] = useState(props.initial);
  const submit = () => value.trim() && close(value.trim());
  return (
    <Dialog
      title={props.title}
      size="small"
      testId="rename-dialog"
      onClose={() => close(null)}
      footer={
        <DialogActions
          onCancel={() => close(null)}
          onAccept={submit}
          acceptLabel="Rename"
          acceptTestId="rename-accept"
          disabled={!value.trim()}
        />
      }
    >
      <label className="field">
        <span className="field-label">{props.label}</span>
        <input
          className="input"
          autoFocus
          value={value}
          data-testid="rename-input"
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => event.key === "Enter" && submit()}
        />
      </label>
    </Dialog>
  );
}

/** The API token the server asks for (kept in this browser's localStorage). */
export function TokenDialog({ props, close }: DialogComponentProps<"token">): ReactElement {
  const [value, setValue] = useState("");
  const submit = () => value.trim() && close(value.trim());
  return (
    <Dialog
      title="API token required"
      size="small"
      testId="token-dialog"
      onClose={() => close(null)}
      footer={
        <DialogActions
          onCancel={() => close(null)}
          onAccept={submit}
          acceptLabel="Use token"
          acceptTestId="token-accept"
          disabled={!value.trim()}
        />
      }
    >
      <p>{props.message}</p>
      <label className="field">
        <span className="field-label">Token</span>
        <input
          className="input mono"
          type="password"
          autoFocus
          autoComplete="off"
          value={value}
          data-testid="token-input"
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => event.key === "Enter" && submit()}
        />
        <span className="field-hint">
          Stored in this browser only (localStorage) and sent as a Bearer token.
        </span>
      </label>
    </Dialog>
  );
}
