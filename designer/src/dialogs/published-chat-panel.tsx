import type { PublicChat } from "@waddle/protocol";
import { useState, type ReactElement } from "react";
import { Icon } from "../components/icon.js";
import { useEditor } from "../editor/editor-context.js";
import { getPublishedChatLinks } from "./get-embed-snippet.js";

/** Copies text with a toast either way (the clipboard may be refused). */
function useCopy(): (what: string, text: string) => Promise<void> {
  const editor = useEditor();
  return async (what, text) => {
    try {
      await navigator.clipboard.writeText(text);
      editor.ui.getState().notify("success", `Copied the ${what}.`);
    } catch {
      editor.ui
        .getState()
        .notify("error", "The browser refused the clipboard: select the text and copy it by hand.");
    }
  };
}

function CopyButton(props: { onCopy(): void; testId: string; label: string }): ReactElement {
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid={props.testId}
      aria-label={props.label}
      onClick={props.onCopy}
    >
      <Icon name="copy" size={14} />
      Copy
    </button>
  );
}

/** The key with Rotate, which asks once more before it cuts off every caller holding the old key. */
function KeyRow(props: { publishableKey: string; onRotate?: () => Promise<void> }): ReactElement {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const rotate = async () => {
    setBusy(true);
    try {
      await props.onRotate?.();
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <div className="publish-key-row">
      <code className="mono publish-key" data-testid="publish-key">
        {props.publishableKey}
      </code>
      {props.onRotate === undefined ? null : confirming ? (
        <span className="publish-rotate-confirm" role="group" aria-label="Rotate the key">
          <span>
            Callers with the old key stop at once; the embed and the hosted page take the new one when
            reloaded.
          </span>
          <button
            type="button"
            className="btn btn-small btn-danger"
            data-testid="publish-rotate-confirm"
            disabled={busy}
            onClick={() => void rotate()}
          >
            Rotate
          </button>
          <button type="button" className="btn btn-small" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="btn btn-small"
          data-testid="publish-rotate"
          title="Issue a new publishable key and revoke this one"
          onClick={() => setConfirming(true)}
        >
          Rotate…
        </button>
      )}
    </div>
  );
}

/**
 * Where a published chat is: the share link, the embed snippet (each with Copy), the public id and
 * publishable key (Rotate when `onRotate` is given), and the hosted page live in a frame.
 */
export function PublishedChatPanel(props: {
  chat: PublicChat;
  onRotate?: () => Promise<void>;
}): ReactElement {
  const { chat } = props;
  const copy = useCopy();
  const links = getPublishedChatLinks({
    origin: window.location.origin,
    publicId: chat.publicId,
  });
  return (
    <section className="publish-share" aria-label="Share the chat" data-testid="publish-share">
      {chat.enabled ? null : (
        <p className="publish-off-note" role="note">
          <Icon name="info" size={14} />
          The chat is off: its link and every embed answer “not available” until you turn it on.
        </p>
      )}
      <div className="publish-share-item">
        <div className="publish-share-head">
          <h3>Share link</h3>
          <CopyButton
            label="Copy the share link"
            testId="publish-copy-link"
            onCopy={() => void copy("share link", links.shareLink)}
          />
        </div>
        <a
          className="mono publish-link"
          href={links.shareLink}
          target="_blank"
          rel="noreferrer"
          data-testid="publish-share-link"
        >
          {links.shareLink}
        </a>
      </div>
      <div className="publish-share-item">
        <div className="publish-share-head">
          <h3>Embed on a site</h3>
          <CopyButton
            label="Copy the embed snippet"
            testId="publish-copy-snippet"
            onCopy={() => void copy("embed snippet", links.snippet)}
          />
        </div>
        <pre className="mono publish-snippet" data-testid="publish-snippet">
          {links.snippet}
        </pre>
        <p className="field-hint">
          Paste it before <code>&lt;/body&gt;</code> on a page of an allowed origin. Options:{" "}
          <code>data-position=&quot;bottom-left&quot;</code>, <code>data-accent=&quot;#2563eb&quot;</code>,{" "}
          <code>data-open-text=&quot;Ask us&quot;</code>.
        </p>
      </div>
      <dl className="publish-ids">
        <dt>Public id</dt>
        <dd>
          <code className="mono" data-testid="publish-public-id">
            {chat.publicId}
          </code>
        </dd>
        <dt>Publishable key</dt>
        <dd>
          <KeyRow
            publishableKey={chat.publishableKey}
            {...(props.onRotate ? { onRotate: props.onRotate } : {})}
          />
        </dd>
      </dl>
      <div className="publish-share-item">
        <h3>Preview</h3>
        {chat.enabled ? (
          <iframe
            // a new frame after each save: the page reads its settings once
            key={`${chat.updatedAt}:${chat.publishableKey}`}
            className="publish-preview"
            src={links.shareLink}
            title={`Preview of the public chat “${chat.title}”`}
            data-testid="publish-preview"
          />
        ) : (
          <p className="empty-note">Turn the chat on to preview it.</p>
        )}
        <p className="field-hint">The preview is the live chat: messages sent here are real conversations.</p>
      </div>
    </section>
  );
}
