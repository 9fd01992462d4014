import type { SpecIssue, SpecIssueCode, SpecIssueFix } from "./spec-issue.js";

/** A path into the spec, as segments (`["tools", 2, "name"]`). */
export type SpecCheckPath = Array<string | number>;

/** How a cross-reference check records an issue. */
export type SpecCheckReport = (
  severity: SpecIssue["severity"],
  code: SpecIssueCode,
  path: SpecCheckPath,
  message: string,
  fix?: SpecIssueFix,
) => void;
