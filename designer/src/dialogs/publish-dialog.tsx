import type { PublicChat } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { getErrorMessage, isApiError } from "../api/api-error.js";
import { Dialog } from "../components/dialog.js";
import { PermissionFieldset } from "../components/permission-fieldset.js";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { useDenied } from "../store/me-store.js";
import {
  getPublishForm,
  getPublishSettings,
  type PublishForm,
  type PublishFormErrors,
} from "./publish-form.js";
import { PublishSettingsFields } from "./publish-settings-fields.js";
import { PublishedChatPanel } from "./published-chat-panel.js";
import "../styles/publish.css";

const PUBLISH_PERMISSION = "agents:write";

type Loaded =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; chat: PublicChat | null };

/** The fields a 400's `details.issues` names (`$.allowedOrigins[2]` → allowedOrigins). */
function getServerErrors(error: unknown): PublishFormErrors | null {
  if (!isApiError(error, "validation_failed")) return null;
  const issues = (error.details as { issues?: { path?: string; message?: string }[] } | undefined)?.issues;
  const errors: PublishFormErrors = {};
  for (const issue of issues ?? []) {
    const field = /^\$\.(\w+)/.exec(issue.path ?? "")?.[1];
    const key = (field === "theme" ? "accent" : field) as keyof PublishForm | undefined;
    if (key && !errors[key]) errors[key] = issue.message ?? error.message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * **Publish → Public chat**: turn the agent's public chat on, say what visitors see and which sites may
 * embed it, save; then its share link, embed snippet, key (with Rotate) and a live preview.
 */
export function PublishDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const agentName = useDocument((state) => state.spec.name);
  const denied = useDenied(PUBLISH_PERMISSION);
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [form, setForm] = useState<PublishForm | null>(null);
  const [errors, setErrors] = useState<PublishFormErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (agentId === null) return;
    let live = true;
    editor.api.getPublicChat(agentId).then(
      (chat) => {
        if (!live) return;
        setLoaded({ status: "ready", chat });
        setForm(getPublishForm(chat, agentName));
      },
      (error: unknown) => live && setLoaded({ status: "failed", message: getErrorMessage(error) }),
    );
    return () => {
      live = false;
    };
    // the form starts from the agent's name once; renaming meanwhile does not reset it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editor, agentId]);

  if (agentId === null) {
    return (
      <Dialog title="Publish a public chat" testId="publish-dialog" onClose={close}>
        <p className="explain">Save the agent first: a public chat serves a saved agent.</p>
      </Dialog>
    );
  }
  const chat = loaded.status === "ready" ? loaded.chat : null;
  const save = async () => {
    if (!form) return;
    const result = getPublishSettings(form);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    setSaving(true);
    try {
      const saved = await editor.api.putPublicChat(agentId, result.settings);
      setLoaded({ status: "ready", chat: saved });
      setForm(getPublishForm(saved, agentName));
      editor.ui
        .getState()
        .notify("success", saved.enabled ? `Published “${saved.title}”.` : "Saved: the public chat is off.");
    } catch (error) {
      const fieldErrors = getServerErrors(error);
      if (fieldErrors) setErrors(fieldErrors);
      else editor.ui.getState().notify("error", getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  const rotate = async () => {
    try {
      const rotated = await editor.api.rotatePublicKey(agentId);
      setLoaded({ status: "ready", chat: rotated });
      editor.ui
        .getState()
        .notify("success", "New key issued: pages with the old key are refused. Paste the new snippet.");
    } catch (error) {
      editor.ui.getState().notify("error", getErrorMessage(error));
    }
  };

  return (
    <Dialog
      title="Publish a public chat"
      size="large"
      testId="publish-dialog"
      onClose={close}
      footer={
        <>
          <button type="button" className="btn" onClick={close}>
            Close
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="publish-save"
            disabled={form === null || saving || denied !== null}
            title={denied ?? undefined}
            onClick={() => void save()}
          >
            {saving ? "Saving…" : chat ? "Save" : "Publish"}
          </button>
        </>
      }
    >
      <p className="explain">
        A chat page for people — customers, colleagues — on its own link or as a button on your site. Visitors
        are anonymous and see only their own conversations; they never reach the designer or your keys.
      </p>
      {loaded.status === "loading" ? <p className="empty-note">Loading…</p> : null}
      {loaded.status === "failed" ? (
        <p className="empty-note is-error" role="alert">
          {loaded.message}
        </p>
      ) : null}
      {form ? (
        <div className="publish-layout">
          <PermissionFieldset permission={PUBLISH_PERMISSION} action="publish this agent">
            <PublishSettingsFields
              form={form}
              errors={errors}
              onChange={(patch) => setForm((current) => (current ? { ...current, ...patch } : current))}
            />
          </PermissionFieldset>
          {chat ? (
            <PublishedChatPanel chat={chat} {...(denied === null ? { onRotate: rotate } : {})} />
          ) : (
            <section className="publish-share publish-share-empty" aria-label="Share the chat">
              <p className="empty-note">
                Not published yet. Publish, and its share link, embed snippet and a live preview show here.
              </p>
            </section>
          )}
        </div>
      ) : null}
    </Dialog>
  );
}
