/** What a secret is replaced with, in events, messages, saved state and errors. */
export const REDACTED = "[redacted]";

/** Secrets this short are only hidden when a whole string equals them (substrings would hit too often). */
const MIN_SECRET_SUBSTRING = 6;

/** Replaces secrets in a string: the whole string when equal, occurrences when long enough to be safe. */
export function redactText(text: string, secrets: ReadonlySet<string>): string {
  // Most runs have no secrets: skip the set iterator, which this would allocate several times a step.
  if (secrets.size === 0) return text;
  if (secrets.has(text)) return REDACTED;
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_SUBSTRING && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * The length of the longest end of `text` that is a proper beginning of one of `secrets` (0 when none):
 * what a stream must hold back until the next piece shows whether a secret follows.
 */
export function getPartialSecretLength(text: string, secrets: Iterable<string>): number {
  let longest = 0;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length > longest; length -= 1) {
      if (text.endsWith(secret.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}
