import { describe, expect, it } from "vitest";
import { createVisitorStorage, type KeyValueStorage } from "./visitor-storage.js";

/** A Map behind the Storage methods the page uses (as localStorage keeps strings). */
function createMapStorage(): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, String(value)),
    removeItem: (key) => void entries.delete(key),
  };
}

describe("createVisitorStorage", () => {
  it("keeps the visitor and conversation per public chat, across page loads", () => {
    const storage = createMapStorage();
    createVisitorStorage(storage, "pub_a").save({ visitorToken: "wpv_a", sessionId: "ses_1" });
    createVisitorStorage(storage, "pub_b").save({ visitorToken: "wpv_b", sessionId: null });
    expect(createVisitorStorage(storage, "pub_a").load()).toEqual({
      visitorToken: "wpv_a",
      sessionId: "ses_1",
    });
    expect(createVisitorStorage(storage, "pub_b").load()).toEqual({ visitorToken: "wpv_b", sessionId: null });
    expect(createVisitorStorage(storage, "pub_c").load()).toBeNull();
    expect([...storage.entries.keys()].sort()).toEqual(["waddle-chat:pub_a", "waddle-chat:pub_b"]);
  });

  it("forgets on clear, and reads what it cannot understand as nothing stored", () => {
    const storage = createMapStorage();
    const visitor = createVisitorStorage(storage, "pub_a");
    visitor.save({ visitorToken: "wpv_a", sessionId: "ses_1" });
    visitor.clear();
    expect(visitor.load()).toBeNull();
    for (const text of ["not json", "null", "[]", '{"visitorToken":7}', '{"sessionId":"ses_1"}']) {
      storage.entries.set("waddle-chat:pub_a", text);
      expect(createVisitorStorage(storage, "pub_a").load(), text).toBeNull();
    }
    storage.entries.set("waddle-chat:pub_a", '{"visitorToken":"wpv_a","sessionId":5}');
    expect(createVisitorStorage(storage, "pub_a").load()).toEqual({ visitorToken: "wpv_a", sessionId: null });
  });

  it("keeps the visitor in memory for the page's life when the browser refuses storage", () => {
    const refusing: KeyValueStorage = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    const visitor = createVisitorStorage(refusing, "pub_a");
    expect(visitor.load()).toBeNull();
    visitor.save({ visitorToken: "wpv_a", sessionId: "ses_1" });
    expect(visitor.load()).toEqual({ visitorToken: "wpv_a", sessionId: "ses_1" });
    expect(createVisitorStorage(null, "pub_a").load()).toBeNull();
  });
});
