import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ApiError } from "../shared/api-error.js";

const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The format of a sealed value, so that another one can come later without guessing. */
const PREFIX = "v1:";

/** A sealed value that does not open with this key: another key sealed it, or it was altered. */
export class SecretBoxError extends ApiError<"secret_not_decryptable"> {
  constructor(message: string) {
    super("secret_not_decryptable", message);
    this.name = "SecretBoxError";
  }
}

/**
 * Encrypts and decrypts credential values at rest with AES-256-GCM. Each value gets a fresh 12-byte IV;
 * its name is the additional authenticated data, so a value moved to another name does not open either.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`A secrets key has ${KEY_BYTES} bytes, not ${key.length}.`);
    this.#key = Buffer.from(key);
  }

  /** `v1:` + base64 of IV, tag and ciphertext. */
  seal(name: string, value: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv);
    cipher.setAAD(Buffer.from(name, "utf8"));
    const encrypted = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64");
  }

  /** The value `seal(name, value)` sealed; throws `SecretBoxError` for another key, name or an altered value. */
  open(name: string, sealed: string): string {
    if (!sealed.startsWith(PREFIX))
      throw new SecretBoxError(`Credential ${name} is not in a format this server reads.`);
    const bytes = Buffer.from(sealed.slice(PREFIX.length), "base64");
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError(`Credential ${name} is truncated.`);
    const decipher = createDecipheriv(ALGORITHM, this.#key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(name, "utf8"));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new SecretBoxError(`Credential ${name} does not decrypt with this secrets key.`);
    }
  }
}

/** A new random key. */
export function createSecretsKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** 32 bytes written as 64 hex characters or as base64; undefined for anything else. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === KEY_BYTES) return bytes;
  }
  return undefined;
}
