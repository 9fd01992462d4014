import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../catalog/catalog.js";
import { getForkConfig } from "./fork-config.js";
import { createPlannerConfig } from "../create-planner-config.js";
import { ScriptedClient } from "../../testing/scripted-client.js";

const config = (options: Parameters<typeof createPlannerConfig>[0]["options"]) =>
  createPlannerConfig({ llm: new ScriptedClient(), catalog: buildCatalog(), options });

describe("getForkConfig (task.subagent)", () => {
  it("inherits the parent's auto-seq settings and runs without tasks of its own", () => {
    const parent = config({ autoSeq: { enabled: true, execute: true }, tasks: { enabled: true } });
    const fork = getForkConfig(parent);
    expect(fork.options.autoSeq).toEqual({ enabled: true, execute: true, readOnlyOnly: true });
    expect(fork.autoSeq).toBe(parent.autoSeq);
    expect(fork.options.tasks.enabled).toBe(false);
    expect(fork.systemPrompt).not.toContain("task.subagent");
    expect(fork.catalog).toBe(parent.catalog);
    expect(getForkConfig(parent)).toBe(fork);
  });

  it("lets tasks.autoSeq override the inherited settings, both ways", () => {
    const off = getForkConfig(
      config({
        autoSeq: { enabled: true, execute: true },
        tasks: { enabled: true, autoSeq: { execute: false } },
      }),
    );
    expect(off.options.autoSeq).toEqual({ enabled: true, execute: false, readOnlyOnly: true });
    const on = getForkConfig(config({ tasks: { enabled: true, autoSeq: { enabled: true } } }));
    expect(on.options.autoSeq.enabled).toBe(true);
    expect(on.autoSeq).toBeDefined();
    const none = getForkConfig(
      config({ autoSeq: { enabled: true }, tasks: { enabled: true, autoSeq: { enabled: false } } }),
    );
    expect(none.autoSeq).toBeUndefined();
  });

  it("cannot keep a paused state: a subagent's pause ends its task", async () => {
    const fork = getForkConfig(config({ tasks: { enabled: true } }));
    await fork.stateStore.save("token", { a: 1 });
    expect(await fork.stateStore.load("token")).toBeUndefined();
  });
});
