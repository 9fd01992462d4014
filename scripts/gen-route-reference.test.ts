import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTE_RULES } from "../server/src/access/route-permissions.js";
import { ROUTE_DESCRIPTIONS } from "./route-reference/route-descriptions.js";
import { getRouteKey, renderRouteReference, ROUTE_REFERENCE_PATH } from "./gen-route-reference.js";

const REGENERATE = "run `npm run docs:routes` and commit docs/reference/rest-routes.md";

describe("the REST route reference", () => {
  it("is what the generator writes from the permission table", () => {
    const committed = readFileSync(new URL(`../${ROUTE_REFERENCE_PATH}`, import.meta.url), "utf8");
    const expected = renderRouteReference();
    if (committed === expected) return;
    const committedLines = committed.split("\n");
    const expectedLines = expected.split("\n");
    const line = expectedLines.findIndex((text, index) => text !== committedLines[index]);
    expect.fail(
      `${ROUTE_REFERENCE_PATH} is out of date: ${REGENERATE}.\n` +
        `First difference at line ${line + 1}:\n  committed: ${committedLines[line] ?? "(end of file)"}\n` +
        `  generated: ${expectedLines[line] ?? "(end of file)"}`,
    );
  });

  it("describes every route of the table", () => {
    const missing = ROUTE_RULES.map(getRouteKey).filter((key) => !(key in ROUTE_DESCRIPTIONS));
    expect(
      missing,
      `add a line for each to scripts/route-reference/route-descriptions.ts, then ${REGENERATE}`,
    ).toEqual([]);
  });

  it("lists every route once, with its permission and scope", () => {
    const reference = renderRouteReference();
    for (const rule of ROUTE_RULES) {
      const row = `| ${rule.method} | \`${rule.path}\` |`;
      expect(reference.split(row).length - 1, row).toBe(1);
    }
  });

  it("puts a route no section claims under Other routes, and escapes pipes", () => {
    const reference = renderRouteReference([
      { method: "GET", path: "/new|thing", access: "runs:read", scope: "run" },
    ]);
    expect(reference).toContain("## Other routes");
    expect(reference).toContain("| GET | `/new\\|thing` | `runs:read` | viewer | `run` |  |");
  });
});
