import type { GuardSpan } from "../guard-types.js";

const BEGIN = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** A key's body when its END line is missing or too far: base64, line breaks and header lines. */
const BODY = /[A-Za-z0-9+/=\s\\:,.]{0,8192}/y;
/** The longest key body taken: an RSA 8192-bit key in PEM is under 7 KB. */
export const PRIVATE_KEY_MAX_BODY = 8_192;

/**
 * PEM and PGP private key blocks, from the BEGIN line to the END line (or, without one within 8 KB, to
 * the end of the base64 that follows). Linear: the next END line is found once and reused by every BEGIN
 * before it, and each block is consumed before the next BEGIN is looked for.
 */
export function findPrivateKeys(text: string): GuardSpan[] {
  const spans: GuardSpan[] = [];
  const begin = new RegExp(BEGIN.source, "g");
  const end = new RegExp(END.source, "g");
  let nextEnd: RegExpExecArray | null | undefined;
  for (let match = begin.exec(text); match !== null; match = begin.exec(text)) {
    const headerEnd = match.index + match[0].length;
    if (nextEnd !== null && (nextEnd === undefined || nextEnd.index < headerEnd)) {
      end.lastIndex = headerEnd;
      nextEnd = end.exec(text);
    }
    let stop: number;
    if (nextEnd && nextEnd.index - headerEnd <= PRIVATE_KEY_MAX_BODY) {
      stop = nextEnd.index + nextEnd[0].length;
    } else {
      const body = new RegExp(BODY.source, "y");
      body.lastIndex = headerEnd;
      stop = headerEnd + (body.exec(text)?.[0].length ?? 0);
    }
    spans.push({ start: match.index, end: stop, kind: "private_key" });
    begin.lastIndex = stop;
  }
  return spans;
}
