import type { LossyField, RenamedField } from "./schema-to-pydantic.js";

/** What the export could not carry into PenguiFlow's names, for the README. */
export interface NotCarried {
  what: string;
  where: string;
}

/** Everything the README reports: renamed names, lossy schemas and what went into `extra` or comments. */
export interface PenguiflowReport {
  toolFunctions: { tool: string; function: string }[];
  models: { tool: string; args: string; out: string }[];
  renamedFields: RenamedField[];
  lossy: LossyField[];
  notCarried: NotCarried[];
}
