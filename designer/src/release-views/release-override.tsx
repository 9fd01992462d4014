import { useState, type ReactElement } from "react";
import { FieldFrame } from "../components/fields.js";

/** An admin's way past failing tests: a reason, kept on the release and in the audit log, then Release anyway. */
export function ReleaseOverride(props: { busy: boolean; onRelease(reason: string): void }): ReactElement {
  const [reason, setReason] = useState("");
  const trimmed = reason.trim();
  return (
    <section className="release-section release-override" aria-label="Release anyway">
      <FieldFrame
        label="Release anyway (admin)"
        hint="The reason is shown on the release and kept in the audit log."
      >
        {(id) => (
          <textarea
            id={id}
            className="input"
            rows={2}
            data-testid="release-override"
            value={reason}
            placeholder="Why this version should go out although its tests fail"
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </FieldFrame>
      <div>
        <button
          type="button"
          className="btn btn-danger"
          data-testid="release-override-submit"
          disabled={trimmed === "" || props.busy}
          title={trimmed === "" ? "Give a reason first" : "Release despite the failing tests"}
          onClick={() => props.onRelease(trimmed)}
        >
          Release anyway
        </button>
      </div>
    </section>
  );
}
