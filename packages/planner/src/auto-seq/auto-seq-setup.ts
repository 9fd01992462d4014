import type { Catalog, CatalogTool } from "../catalog/catalog.js";
import { AutoSeqCache } from "./auto-seq-cache.js";

/** What detection needs from the planner, built once when `autoSeq.enabled`. */
export interface AutoSeqSetup {
  /** The catalog's tools that take part (`autoSeq`), in catalog order: the run's visibility scope. */
  tools: readonly CatalogTool[];
  /** Output type names (out-schema `title`) for fingerprints. */
  payloadTypes: ReadonlyMap<string, string>;
  /** Shared by the planner's runs: it only memoizes facts about schemas. */
  cache: AutoSeqCache;
}

export function createAutoSeqSetup(catalog: Catalog): AutoSeqSetup {
  const payloadTypes = new Map<string, string>();
  for (const tool of catalog.tools) {
    const title = tool.outSchema["title"];
    if (typeof title === "string" && title.length > 0) payloadTypes.set(tool.name, title);
  }
  return { tools: catalog.tools.filter((tool) => tool.autoSeq), payloadTypes, cache: new AutoSeqCache() };
}
