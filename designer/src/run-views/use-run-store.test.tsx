import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EditorContext, type Editor } from "../editor/editor-context.js";
import { FakeRunApi, makeRunRecord } from "../testing/fake-run-api.js";
import { getRunFixture } from "../testing/run-fixtures.js";
import { FakeRunTransport } from "../runs/transport/fake-run-transport.js";
import { createRunStore, type RunStore } from "../runs/run-store.js";
import { useEdgeRunState, useNodeRunState, useRunStore } from "./use-run-store.js";

function Probe(): ReactElement {
  const mode = useRunStore((state) => state.mode);
  const node = useNodeRunState("triage");
  const edge = useEdgeRunState("triage-retrieve");
  return (
    <p>
      {mode}:{node?.state ?? "none"}:{edge?.count ?? 0}
    </p>
  );
}

// A server render reads the store's initial state (useSyncExternalStore's server snapshot): let it see now's.
const render = (runs: RunStore) =>
  renderToString(
    <EditorContext.Provider
      value={{ runs: { ...runs, getInitialState: runs.getState } } as unknown as Editor}
    >
      <Probe />
    </EditorContext.Provider>,
  );

describe("run store hooks", () => {
  it("read editor.runs: nothing while editing, the node's and edge's slice while a run shows", async () => {
    const transport = new FakeRunTransport();
    const api = new FakeRunApi(transport);
    const { spec, events } = getRunFixture("support-triage");
    api.addVersion(spec, 1);
    api.addRun(
      makeRunRecord({ id: "run-1", agentId: spec.id, status: "finished" }),
      events.map((event) => ({ ...event, runId: "run-1" })),
    );
    const runs = createRunStore({ api, transport });
    expect(render(runs)).toBe("<p>edit<!-- -->:<!-- -->none<!-- -->:<!-- -->0</p>");
    await runs.getState().openRun("run-1");
    expect(render(runs)).toBe("<p>replay<!-- -->:<!-- -->succeeded<!-- -->:<!-- -->1</p>");
  });
});
