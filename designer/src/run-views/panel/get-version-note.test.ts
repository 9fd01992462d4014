import { describe, expect, it } from "vitest";
import { getVersionNote } from "./get-version-note.js";

const run = { agentId: "triage", agentVersion: 3 };

describe("getVersionNote", () => {
  it("says nothing when the open agent is the version that ran", () => {
    expect(getVersionNote({ run, document: { agentId: "triage", baseVersion: 3, dirty: false } })).toBeNull();
    expect(
      getVersionNote({
        run: { agentId: null, agentVersion: null },
        document: { agentId: null, baseVersion: null, dirty: true },
      }),
    ).toBeNull();
  });

  it("names a newer version and unsaved changes", () => {
    expect(getVersionNote({ run, document: { agentId: "triage", baseVersion: 5, dirty: true } })).toBe(
      "This run shows v3; the open agent is now v5 and has unsaved changes.",
    );
    expect(getVersionNote({ run, document: { agentId: "triage", baseVersion: 3, dirty: true } })).toBe(
      "This run shows v3; the open agent has unsaved changes.",
    );
  });

  it("names another agent", () => {
    expect(getVersionNote({ run, document: { agentId: "other", baseVersion: 1, dirty: false } })).toContain(
      "“triage” v3",
    );
  });
});
