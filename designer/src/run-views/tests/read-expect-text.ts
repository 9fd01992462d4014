import { TestExpect } from "@waddle/protocol";

export type ReadExpect = { ok: true; expect: TestExpect } | { ok: false; message: string };

/**
 * A case's `expect` as typed in the designer's JSON box: parsed, then checked with the protocol's schema,
 * the first problem said with its path (`trajectory.order: Invalid option…`) so it can be fixed in place.
 */
export function readExpectText(text: string): ReadExpect {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${(error as Error).message}` };
  }
  const parsed = TestExpect.safeParse(value);
  if (parsed.success) return { ok: true, expect: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return { ok: false, message: `${where}${issue?.message ?? "does not fit the expectations' schema"}` };
}
