import { PRODUCTION_CHANNEL } from "@waddle/protocol";
import { useId, useState, type ReactElement } from "react";
import { Dialog } from "../components/dialog.js";
import { FieldFrame } from "../components/fields.js";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { getChannelNameIssue } from "../releases/get-channel-name-issue.js";
import { getReleaseTestsView } from "../releases/get-release-tests-view.js";
import { getReleaseRefusal, type ReleaseRefusal } from "../releases/release-errors.js";
import { getIsDirty } from "../store/document-store.js";
import { meStore, useDenied } from "../store/me-store.js";
import { formatRelativeTime } from "../util/format-time.js";
import { ReleaseDiffSection } from "./release-diff-section.js";
import { ReleaseOverride } from "./release-override.js";
import { ReleaseShadowSection } from "./release-shadow-section.js";
import { ReleaseTestsSection } from "./release-tests-section.js";
import { useReleaseTests } from "./use-release-tests.js";
import { getReleasesStore, useReleases } from "./use-releases.js";

/** The refusal in words a person acts on (the server's own message names API fields). */
function getRefusalText(refusal: ReleaseRefusal, channel: string, version: number): string {
  if (refusal.kind === "tests_failed") {
    const count = refusal.details.failures.length;
    return `Not released: v${version} failed ${count} test case${count === 1 ? "" : "s"} (listed under Tests). Fix ${count === 1 ? "it" : "them"} and save a new version.`;
  }
  if (refusal.kind === "channel_moved")
    return `Not released: ${channel} moved to ${refusal.version === null ? "nothing" : `v${refusal.version}`} meanwhile (someone else released). The changes above now start from there: look again, then release.`;
  return refusal.message;
}

/**
 * Release…: points a channel at a saved version. It shows what changes for that channel, the agent's suite
 * on the version (the gate's run live once Release is pressed, then its result), the newest shadow
 * comparison, and Release, off with the reason while the tests fail; an admin may release anyway, with a
 * reason that is kept on the release.
 */
export function ReleaseDialog(props: { channel?: string | undefined; close: () => void }): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId) ?? "";
  const baseVersion = useDocument((state) => state.baseVersion);
  const dirty = useDocument(getIsDirty);
  const channels = useReleases((state) => state.channels);
  const versions = useReleases((state) => state.versions);
  const isAdmin = meStore((state) => state.me?.role === "admin");
  const canRelease = meStore((state) => state.me?.canRelease ?? state.me?.role === "admin");
  const testsDenied = useDenied("tests:write");
  const listId = useId();
  const latest = Math.max(baseVersion ?? 0, ...versions.map((entry) => entry.version)) || null;
  const [chosenVersion, setChosenVersion] = useState<number | null>(null);
  const version = chosenVersion ?? latest;
  const [channel, setChannel] = useState(props.channel ?? PRODUCTION_CHANNEL);
  const [notes, setNotes] = useState("");
  const [shadowReportId, setShadowReportId] = useState<string | null>(null);
  const [releasing, setReleasing] = useState(false);
  const [refusal, setRefusal] = useState<ReleaseRefusal | null>(null);
  const current = channels.find((entry) => entry.name === channel) ?? null;
  const nameIssue = getChannelNameIssue(channel);
  const tests = useReleaseTests(agentId, version);
  const testsView = getReleaseTestsView({
    version: version ?? 0,
    caseCount: tests.caseCount,
    record: tests.record,
    releasing,
    gateFailures: refusal?.kind === "tests_failed" ? refusal.details.failures : undefined,
  });

  const blockedReason =
    version === null
      ? "Save the agent first."
      : channel === PRODUCTION_CHANNEL && !canRelease
        ? "Releasing to production needs an admin, or an editor key created with “may release to production”."
        : nameIssue
          ? "Name the channel first."
          : current?.version === version
            ? `${channel} already serves v${version}.`
            : testsView.blockedReason
              ? testsView.blockedReason
              : testsView.status === "running" && !releasing
                ? "Wait for the test run to finish."
                : testsView.status === "loading"
                  ? "Reading the tests…"
                  : null;

  const submit = async (overrideReason?: string) => {
    if (version === null) return;
    setReleasing(true);
    setRefusal(null);
    try {
      await editor.api.createRelease(agentId, {
        version,
        channel,
        expectedVersion: current?.version ?? null,
        ...(notes.trim() ? { notes: notes.trim() } : {}),
        ...(overrideReason ? { override: { reason: overrideReason } } : {}),
        ...(shadowReportId ? { shadowReportId } : {}),
      });
      await getReleasesStore(editor).getState().refresh();
      editor.ui.getState().notify("success", `Released v${version} to ${channel}.`);
      props.close();
    } catch (error) {
      const refused = getReleaseRefusal(error);
      setRefusal(refused);
      if (refused.kind === "tests_failed") await tests.show(refused.details.testRunId);
      if (refused.kind === "channel_moved") await getReleasesStore(editor).getState().refresh();
    } finally {
      setReleasing(false);
    }
  };

  const footer = (
    <>
      <p className="release-blocked" data-testid="release-blocked-reason" aria-live="polite">
        {releasing ? `Running the gate on v${version ?? ""}…` : (blockedReason ?? "")}
      </p>
      <button
        type="button"
        className="btn"
        onClick={() => {
          props.close();
          void editor.ui.getState().openDialog("releases", { channel });
        }}
      >
        Releases…
      </button>
      <button type="button" className="btn" onClick={props.close}>
        Cancel
      </button>
      <button
        type="button"
        className="btn btn-primary"
        data-testid="release-submit"
        disabled={blockedReason !== null || releasing}
        title={blockedReason ?? `Point ${channel} at v${version ?? ""}`}
        onClick={() => void submit()}
      >
        {releasing ? "Releasing…" : `Release v${version ?? ""} to ${channel || "…"}`}
      </button>
    </>
  );

  return (
    <Dialog title="Release" size="large" testId="release-dialog" onClose={props.close} footer={footer}>
      <div className="release-form">
        <FieldFrame label="Version">
          {(id) => (
            <select
              id={id}
              className="input"
              data-testid="release-version"
              value={version ?? ""}
              onChange={(event) => setChosenVersion(Number(event.target.value))}
            >
              {versions.length === 0 && version !== null ? <option value={version}>v{version}</option> : null}
              {[...versions]
                .sort((a, b) => b.version - a.version)
                .map((entry) => (
                  <option key={entry.version} value={entry.version}>
                    v{entry.version}
                    {entry.version === latest ? " (latest save)" : ""} · {formatRelativeTime(entry.createdAt)}
                  </option>
                ))}
            </select>
          )}
        </FieldFrame>
        <FieldFrame
          label="Channel"
          error={channel === "" ? null : nameIssue}
          hint={
            current
              ? `${channel} serves v${current.version} now.`
              : channel === PRODUCTION_CHANNEL
                ? "production serves every caller who names no version."
                : "A new channel: callers ask for it by name."
          }
        >
          {(id) => (
            <>
              <input
                id={id}
                className="input"
                list={listId}
                data-testid="release-channel"
                value={channel}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  setChannel(event.target.value);
                  setRefusal(null);
                }}
              />
              <datalist id={listId}>
                {[...new Set([PRODUCTION_CHANNEL, "staging", ...channels.map((entry) => entry.name)])].map(
                  (name) => {
                    const serving = channels.find((entry) => entry.name === name);
                    return (
                      <option key={name} value={name}>
                        {serving ? `serves v${serving.version}` : "new"}
                      </option>
                    );
                  },
                )}
              </datalist>
            </>
          )}
        </FieldFrame>
        <FieldFrame label="Notes" hint="What changed and why, for whoever reads the releases later.">
          {(id) => (
            <textarea
              id={id}
              className="input release-notes"
              rows={2}
              data-testid="release-notes"
              value={notes}
              placeholder="e.g. Answers in the customer's language"
              onChange={(event) => setNotes(event.target.value)}
            />
          )}
        </FieldFrame>
      </div>
      {dirty ? (
        <p className="release-note" data-testid="release-unsaved-note">
          Unsaved changes are not part of v{latest ?? ""}: save them first to release them.
        </p>
      ) : null}
      {refusal ? (
        <p
          className="run-notice tone-error"
          role="alert"
          data-testid="release-refusal"
          data-kind={refusal.kind}
        >
          {getRefusalText(refusal, channel, version ?? 0)}
        </p>
      ) : null}
      <ReleaseTestsSection
        view={testsView}
        error={tests.error}
        canRunAgain={!releasing && testsView.status !== "running"}
        runAgainDenied={testsDenied}
        onRunAgain={() => void tests.runAgain()}
      />
      {testsView.blockedReason && isAdmin ? (
        <ReleaseOverride busy={releasing} onRelease={(reason) => void submit(reason)} />
      ) : null}
      <ReleaseDiffSection
        agentId={agentId}
        channel={channel}
        current={current?.version ?? null}
        version={version}
      />
      <ReleaseShadowSection
        agentId={agentId}
        version={version}
        channel={nameIssue ? PRODUCTION_CHANNEL : channel}
        attached={shadowReportId}
        onAttach={setShadowReportId}
      />
    </Dialog>
  );
}
