import { describe, expect, it } from "vitest";
import { getComposerQuery } from "./get-composer-query.js";

describe("getComposerQuery", () => {
  const ran = new Set(["run B's query", "run A's query"]);

  it("gives way to the shown run's query when the box holds another run's", () => {
    expect(getComposerQuery({ box: "run B's query", shownQuery: "run A's query", ranQueries: ran })).toBe(
      "run A's query",
    );
    expect(getComposerQuery({ box: "run B's query\n", shownQuery: "run A's query", ranQueries: ran })).toBe(
      "run A's query",
    );
  });

  it("keeps a draft nobody ran, an empty box, and the box while the shown query is unknown", () => {
    expect(getComposerQuery({ box: "a new question", shownQuery: "run A's query", ranQueries: ran })).toBe(
      "a new question",
    );
    expect(getComposerQuery({ box: "", shownQuery: "run A's query", ranQueries: ran })).toBe("");
    expect(getComposerQuery({ box: "run B's query", shownQuery: "", ranQueries: ran })).toBe("run B's query");
  });
});
