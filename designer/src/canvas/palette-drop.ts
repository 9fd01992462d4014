import { A2aCardSummary, parseJson } from "@waddle/protocol";
import { z } from "zod";

/** The drag payload of a palette entry (a MIME type of its own, so nothing else drops onto the canvas). */
export const PALETTE_MIME = "application/x-waddle-palette";

export const PaletteItem = z.discriminatedUnion("type", [
  z.object({ type: z.literal("new-tool"), kind: z.enum(["mock", "http", "llm", "agent"]) }),
  z.object({ type: z.literal("module-tool"), name: z.string() }),
  z.object({ type: z.literal("mcp-tool"), server: z.string(), tool: z.string() }),
  z.object({ type: z.literal("group") }),
  z.object({ type: z.literal("a2a-tool"), url: z.string(), card: A2aCardSummary }),
]);
export type PaletteItem = z.infer<typeof PaletteItem>;

/** Reads a palette drag payload (a boundary: anything can be dropped). */
export function readPaletteItem(text: string): PaletteItem | null {
  const json = parseJson(text);
  if (!json.ok) return null;
  const parsed = PaletteItem.safeParse(json.value);
  return parsed.success ? parsed.data : null;
}
