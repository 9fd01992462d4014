import { describe, expect, it } from "vitest";
import { createApiClient } from "../api/api-client.js";
import { createDocumentStore } from "../store/document-store.js";
import { createServerStore } from "../store/server-store.js";
import { createUiStore } from "../store/ui-store.js";
import {
  createUnsavedDraftStorage,
  UNSAVED_DRAFT_KEY,
  type UnsavedDraftStorage,
} from "../store/unsaved-draft-storage.js";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { AgentLibrary } from "./agent-library.js";

/** localStorage as a map, shared by the "page loads" of one test. */
function createMemoryStorage(): Map<string, string> & Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  const map = new Map<string, string>();
  return Object.assign(map, {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  });
}

/** One page load: fresh stores and library over the browser's storage, the blank document of a new page. */
function loadPage(storage: UnsavedDraftStorage, fetcher?: typeof fetch) {
  const document = createDocumentStore({ spec: makeSpec({ id: "untitled", name: "Untitled agent" }) });
  const server = createServerStore();
  const ui = createUiStore();
  const api = createApiClient({
    getToken: () => null,
    fetch: fetcher ?? ((async () => new Response(null, { status: 503 })) as typeof fetch),
  });
  const library = new AgentLibrary({ api, document, server, ui, unsavedDrafts: storage });
  return { document, server, ui, library };
}

/** A new agent (never saved) with one edit, kept as the autosave keeps it. */
function editNewAgent(page: ReturnType<typeof loadPage>): void {
  page.document.getState().load({
    spec: makeSpec({ id: "support-bot", name: "Support bot", tools: [] }),
    agentId: null,
    version: null,
  });
  page.document
    .getState()
    .dispatch({ type: "addTool", tool: makeTool("lookup_order"), position: { x: 0, y: 0 } });
  page.library.unsaved.keep();
}

describe("the draft of an agent never saved", () => {
  it("is kept in the browser and offered back after a reload, which restores it unsaved", async () => {
    const storage = createUnsavedDraftStorage(createMemoryStorage());
    editNewAgent(loadPage(storage));

    const reloaded = loadPage(storage);
    reloaded.library.unsaved.offer();
    const offered = reloaded.server.getState().pendingUnsavedDraft;
    expect(offered?.spec).toMatchObject({ id: "support-bot", name: "Support bot" });

    await reloaded.library.restoreUnsavedDraft();
    const document = reloaded.document.getState();
    expect(reloaded.server.getState().pendingUnsavedDraft).toBeNull();
    expect(document.agentId).toBeNull();
    expect(document.spec.name).toBe("Support bot");
    expect(document.spec.tools.map((tool) => tool.name)).toEqual(["lookup_order"]);
    // still kept until it is saved: another reload offers it again
    expect(storage.read()?.spec).toMatchObject({ id: "support-bot" });
  });

  it("keeps nothing for the blank page, a saved agent, or while a found draft waits for a choice", () => {
    const storage = createUnsavedDraftStorage(createMemoryStorage());
    const page = loadPage(storage);
    page.library.unsaved.keep();
    expect(storage.read()).toBeNull();

    editNewAgent(page);
    const kept = storage.read();
    const reloaded = loadPage(storage);
    reloaded.library.unsaved.offer();
    // editing the blank page while the banner shows must not overwrite the offered draft
    reloaded.document
      .getState()
      .dispatch({ type: "addTool", tool: makeTool("other"), position: { x: 0, y: 0 } });
    reloaded.library.unsaved.keep();
    expect(storage.read()).toEqual(kept);
  });

  it("is not offered over a page that opened an agent or has edits, and Discard forgets it", () => {
    const storage = createUnsavedDraftStorage(createMemoryStorage());
    editNewAgent(loadPage(storage));

    const edited = loadPage(storage);
    edited.document
      .getState()
      .dispatch({ type: "addTool", tool: makeTool("mine"), position: { x: 0, y: 0 } });
    edited.library.unsaved.offer();
    expect(edited.server.getState().pendingUnsavedDraft).toBeNull();

    const reloaded = loadPage(storage);
    reloaded.library.unsaved.offer();
    reloaded.library.unsaved.discard();
    expect(reloaded.server.getState().pendingUnsavedDraft).toBeNull();
    expect(storage.read()).toBeNull();
  });

  it("is dropped once the agent is saved", async () => {
    const storage = createUnsavedDraftStorage(createMemoryStorage());
    const { fetcher } = createRecordingFetch((request) =>
      request.method === "POST"
        ? { status: 201, body: { id: "support-bot", version: 1 } }
        : { status: 200, body: { agents: [] } },
    );
    const page = loadPage(storage, fetcher);
    editNewAgent(page);
    expect(storage.read()).not.toBeNull();
    expect(await page.library.save()).toBe(true);
    expect(storage.read()).toBeNull();
  });

  it("reads anything unreadable in storage as no draft", () => {
    const memory = createMemoryStorage();
    const storage = createUnsavedDraftStorage(memory);
    for (const text of ["{not json", JSON.stringify({ spec: "nope" }), JSON.stringify([1])]) {
      memory.setItem(UNSAVED_DRAFT_KEY, text);
      expect(storage.read(), text).toBeNull();
    }
    expect(createUnsavedDraftStorage(undefined).read()).toBeNull();
  });
});
