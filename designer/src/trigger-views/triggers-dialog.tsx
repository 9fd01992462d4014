import type { Trigger, TriggerKind } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { useStore } from "zustand";
import { Dialog } from "../components/dialog.js";
import { Icon } from "../components/icon.js";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { openRunRoute } from "../inbox-views/use-inbox.js";
import { getAgentRouteHash } from "../run-views/run-route.js";
import { useDenied } from "../store/me-store.js";
import { getTriggerSummary, getTriggerTitle } from "../triggers/describe-trigger.js";
import { getBrowserTimezone, getNewTriggerForm, getTriggerForm } from "../triggers/trigger-form.js";
import { createTriggersStore, type TriggersStore } from "../triggers/triggers-store.js";
import { NextFires, TriggerFires, WebhookInfo } from "./trigger-details.js";
import { TriggerEditor } from "./trigger-editor.js";
import "../styles/triggers.css";

const WRITE_PERMISSION = "agents:write";

/**
 * **Triggers**: the open agent's schedules and webhooks. The list on the left (New trigger on top); the
 * chosen one's form on the right, with a schedule's next fires or a webhook's URL, secret and curl, and
 * its last fires linked to their runs. Kept live: every run a trigger fires reads the list and fires again.
 */
export function TriggersDialog({ close }: { close: () => void }): ReactElement {
  const agentId = useDocument((state) => state.agentId);
  return (
    <Dialog title="Triggers" testId="triggers-dialog" size="large" onClose={close}>
      {agentId === null ? (
        <p className="explain">Save the agent first: a trigger starts runs of a saved agent.</p>
      ) : (
        <TriggersPanel agentId={agentId} close={close} />
      )}
    </Dialog>
  );
}

function useTriggersStore(agentId: string): TriggersStore {
  const editor = useEditor();
  const [store] = useState(() => createTriggersStore({ api: editor.api, agentId }));
  useEffect(() => {
    void store.getState().load();
    // a fired run (started, then each change) moves the next fires and adds to the fires list
    return editor.connection.agents.watch(agentId, "run_updated", {
      onMessage(run) {
        if (!run.trigger) return;
        void store.getState().load();
        if (store.getState().fires[run.trigger.id]) void store.getState().loadFires(run.trigger.id);
      },
    });
  }, [editor, store, agentId]);
  return store;
}

function TriggersPanel({ agentId, close }: { agentId: string; close: () => void }): ReactElement {
  const store = useTriggersStore(agentId);
  const triggers = useStore(store, (state) => state.triggers);
  const status = useStore(store, (state) => state.status);
  const error = useStore(store, (state) => state.error);
  const secret = useStore(store, (state) => state.secret);
  const fires = useStore(store, (state) => state.fires);
  const denied = useDenied(WRITE_PERMISSION);
  // the trigger shown, "new" for the form of a new one (its kind), or null before the list is read
  const [shown, setShown] = useState<string | { new: TriggerKind } | null>(null);
  const selected =
    typeof shown === "string" ? (triggers.find((trigger) => trigger.id === shown) ?? null) : null;
  useEffect(() => {
    if (shown !== null || status !== "ready") return;
    setShown(triggers[0]?.id ?? { new: "schedule" });
  }, [shown, status, triggers]);
  useEffect(() => {
    if (selected) void store.getState().loadFires(selected.id);
  }, [store, selected?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const openRun = (runId: string) => {
    close();
    openRunRoute(getAgentRouteHash({ agentId, runId }));
  };
  const newKind = typeof shown === "object" && shown !== null ? shown.new : null;
  return (
    <div className="triggers">
      <aside className="triggers-list" aria-label="Triggers of this agent">
        <button
          type="button"
          className="btn btn-small"
          data-testid="trigger-new"
          disabled={denied !== null}
          title={denied ?? "A new schedule or webhook"}
          aria-pressed={newKind !== null}
          onClick={() => setShown({ new: "schedule" })}
        >
          <Icon name="plus" size={14} />
          New trigger
        </button>
        {status === "ready" && triggers.length === 0 ? (
          <p className="trigger-muted">None yet: this agent runs only when someone runs it.</p>
        ) : null}
        <ul>
          {triggers.map((trigger) => (
            <li key={trigger.id}>
              <button
                type="button"
                className={`trigger-item${trigger.id === selected?.id ? " is-selected" : ""}`}
                data-testid="trigger-item"
                data-trigger-id={trigger.id}
                data-kind={trigger.kind}
                data-enabled={trigger.enabled}
                aria-pressed={trigger.id === selected?.id}
                onClick={() => setShown(trigger.id)}
              >
                <span className="trigger-item-head">
                  <Icon name={trigger.kind === "schedule" ? "clock" : "link"} size={14} />
                  <strong>{getTriggerTitle(trigger)}</strong>
                  <span className={`trigger-state${trigger.enabled ? " is-on" : ""}`}>
                    {trigger.enabled ? "on" : "off"}
                  </span>
                </span>
                <span className="trigger-item-summary mono">{getTriggerSummary(trigger)}</span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="triggers-detail">
        {error ? (
          <p className="field-error" role="alert" data-testid="triggers-error">
            {error}
          </p>
        ) : null}
        {status === "failed" ? null : newKind !== null ? (
          <TriggerEditor
            key={`new-${newKind}`}
            initial={getNewTriggerForm(newKind, getBrowserTimezone())}
            saved={null}
            disabled={denied !== null}
            onKindChange={(kind) => setShown({ new: kind })}
            onSave={async (form) => {
              const result = await store.getState().save(form);
              if ("errors" in result) return result.errors;
              setShown(result.trigger.id);
              return null;
            }}
          />
        ) : selected ? (
          <SavedTrigger
            trigger={selected}
            agentId={agentId}
            store={store}
            secret={secret?.triggerId === selected.id ? secret.secret : null}
            fires={fires[selected.id]}
            denied={denied}
            onOpenRun={openRun}
            onDeleted={() => setShown(null)}
          />
        ) : null}
      </section>
    </div>
  );
}

function SavedTrigger(props: {
  trigger: Trigger;
  agentId: string;
  store: TriggersStore;
  secret: string | null;
  fires: Parameters<typeof TriggerFires>[0]["fires"];
  denied: string | null;
  onOpenRun: (runId: string) => void;
  onDeleted: () => void;
}): ReactElement {
  const { trigger, store, denied } = props;
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="trigger-saved" data-testid="trigger-detail" data-trigger-id={trigger.id}>
      <div className="trigger-saved-bar">
        <span className={`trigger-state${trigger.enabled ? " is-on" : ""}`} data-testid="trigger-state">
          {trigger.enabled ? "On" : "Off"}
        </span>
        <button
          type="button"
          className="btn btn-small"
          data-testid="trigger-toggle"
          disabled={denied !== null}
          title={denied ?? undefined}
          onClick={() => void store.getState().setEnabled(trigger.id, !trigger.enabled)}
        >
          {trigger.enabled ? "Turn off" : "Turn on"}
        </button>
        {confirming ? (
          <>
            <span className="trigger-muted">Delete it? Its fires stop; its runs stay.</span>
            <button
              type="button"
              className="btn btn-small btn-danger"
              data-testid="trigger-delete-confirm"
              onClick={() => void store.getState().remove(trigger.id).then(props.onDeleted)}
            >
              Delete
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            data-testid="trigger-delete"
            disabled={denied !== null}
            title={denied ?? undefined}
            onClick={() => setConfirming(true)}
          >
            <Icon name="trash" size={14} />
            Delete
          </button>
        )}
      </div>
      <div className="trigger-saved-columns">
        <TriggerEditor
          key={trigger.id}
          initial={getTriggerForm(trigger)}
          saved={trigger}
          disabled={denied !== null}
          onSave={async (form) => {
            const result = await store.getState().save(form, trigger);
            return "errors" in result ? result.errors : null;
          }}
        />
        <div className="trigger-saved-side">
          {trigger.kind === "schedule" ? (
            <NextFires trigger={trigger} />
          ) : (
            <WebhookInfo trigger={trigger} secret={props.secret} />
          )}
          <TriggerFires agentId={props.agentId} fires={props.fires} onOpenRun={props.onOpenRun} />
        </div>
      </div>
    </div>
  );
}
