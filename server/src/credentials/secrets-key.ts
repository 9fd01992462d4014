import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../shared/config-error.js";
import { createSecretsKey, parseSecretsKey } from "./secret-box.js";

export const SECRETS_KEY_FILE = "secrets.key";

/** Where the key that seals stored credentials comes from. */
export type SecretsKeySource =
  | { kind: "environment"; key: Buffer }
  | { kind: "file"; key: Buffer; file: string }
  /** No key yet: `createSecretsKeyFile` makes one when the first credential is stored. */
  | { kind: "none"; file: string };

/**
 * Reads the secrets key: `WADDLE_SECRETS_KEY` (32 bytes as 64 hex characters or base64), else the data
 * folder's `secrets.key`. A malformed variable or a corrupted file stops the start with a `ConfigError`
 * that names which, rather than losing the stored credentials.
 */
export function readSecretsKey(options: { env: NodeJS.ProcessEnv; dataDir: string }): SecretsKeySource {
  const file = path.join(options.dataDir, SECRETS_KEY_FILE);
  const fromEnv = options.env.WADDLE_SECRETS_KEY?.trim();
  if (fromEnv) {
    const key = parseSecretsKey(fromEnv);
    if (!key) {
      throw new ConfigError(
        "WADDLE_SECRETS_KEY is not a 32-byte key: give 64 hex characters or the base64 of 32 bytes (e.g. `openssl rand -hex 32`).",
      );
    }
    return { kind: "environment", key };
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return { kind: "none", file };
    throw new ConfigError(
      `The secrets key file ${file} cannot be read (${(error as { code?: string }).code ?? String(error)}): fix its permissions, or set WADDLE_SECRETS_KEY.`,
    );
  }
  const key = parseSecretsKey(text);
  if (!key) {
    throw new ConfigError(
      `The secrets key file ${file} is corrupted (it does not hold 64 hex characters): restore it from a backup, or set WADDLE_SECRETS_KEY to the key the credentials were stored with. Deleting it loses every stored credential.`,
    );
  }
  return { kind: "file", key, file };
}

/** Writes a new random key to `file` with mode 0600 (the folder is made if needed); returns it. */
export function createSecretsKeyFile(file: string): Buffer {
  const key = createSecretsKey();
  mkdirSync(path.dirname(file), { recursive: true });
  // `wx`: never overwrite a key another process just wrote.
  writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return key;
}
