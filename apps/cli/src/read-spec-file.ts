import { readFileSync } from "node:fs";
import path from "node:path";
import { parseJson, protoSafeReviver } from "@waddle/protocol";

/** Reads a JSON file with the prototype-safe parser; throws with a readable message. */
export function readJsonFile(file: string, cwd: string): unknown {
  const full = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    throw new Error(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}.`,
      { cause: error },
    );
  }
  // Windows editors may save UTF-8 with a byte-order mark, which JSON.parse refuses as an invisible token.
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const parsed = parseJson(text, { reviver: protoSafeReviver });
  if (!parsed.ok) throw new Error(`${file} is not valid JSON: ${parsed.error}.`);
  return parsed.value;
}
