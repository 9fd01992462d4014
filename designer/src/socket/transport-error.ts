/** What a live subscription reports to its listeners: the server's refusal, a malformed message, a failed read. */
export interface TransportError {
  code: string;
  message: string;
}

/** A message that failed its schema check: reported, and dropped. */
export function createInvalidMessageError(what: string): TransportError {
  return {
    code: "invalid_message",
    message: `The server sent a ${what} of an unexpected shape; it was ignored.`,
  };
}
