import { findDuplicateCaseNames, type TestCase } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";

/** Refuses a suite in which two cases share a name: 422 `duplicate_case_name` naming them and what to do. */
export function assertUniqueCaseNames(cases: readonly Pick<TestCase, "id" | "name">[]): void {
  const [duplicate] = findDuplicateCaseNames(cases);
  if (!duplicate) return;
  const ids = duplicate.indices.map((index) => cases[index]!.id);
  throw new ApiError(
    "duplicate_case_name",
    `Cases ${duplicate.indices.map((index) => `${index + 1}`).join(" and ")} of the suite are both named "${duplicate.name}": give each case its own name (or delete one).`,
    { name: duplicate.name, indices: duplicate.indices, caseIds: ids },
  );
}

/**
 * A name for a case saved from a run: the asked-for name must be free (else `duplicate_case_name`); a
 * default one (the run's query) gets " (2)", " (3)", … until it is.
 */
export function getFreeCaseName(options: {
  name: string;
  chosen: boolean;
  cases: readonly Pick<TestCase, "name">[];
}): string {
  const taken = new Set(options.cases.map((testCase) => testCase.name.trim()));
  const name = options.name.trim();
  if (!taken.has(name)) return name;
  if (options.chosen) {
    throw new ApiError(
      "duplicate_case_name",
      `The suite already has a case named "${name}": save this run under another name.`,
      { name },
    );
  }
  for (let counter = 2; ; counter += 1) {
    const candidate = `${name} (${counter})`;
    if (!taken.has(candidate)) return candidate;
  }
}
