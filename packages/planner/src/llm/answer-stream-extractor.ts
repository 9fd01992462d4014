/** Top-level keys whose string value is the answer of a terminal action (hybrids put it there). */
const TOP_ANSWER_KEYS = new Set(["answer", "raw_answer"]);
/** Keys inside `args` whose string value is the answer. */
const ARGS_ANSWER_KEYS = new Set(["answer", "raw_answer"]);

type Container = "object" | "array";
/** Where the tokenizer is inside the current object: before a key, in a key, before `:`, before a value. */
type ObjectSlot = "key" | "colon" | "value" | "comma";

interface Frame {
  kind: Container;
  slot: ObjectSlot;
  /** The key whose value is being read (objects only). */
  key: string;
}

type StringRole = "key" | "next_node" | "answer" | "other";

/**
 * Streams the answer of a `final_response` (or legacy `next_node: null`) while the action JSON is still
 * being generated. `feed(chunk)` returns the answer text to show for that chunk. It tokenizes the JSON
 * incrementally, so key order does not matter: text is held back until `next_node` says the action is
 * terminal and dropped when it is a tool call. Every JSON escape is decoded, including `\uXXXX` and
 * surrogate pairs split across chunks.
 */
export class AnswerStreamExtractor {
  private readonly stack: Frame[] = [];
  private started = false;
  private finished = false;
  private terminal: boolean | undefined;
  private nodeValue: string | null | undefined;
  private answerClaimed = false;
  private emitted = 0;
  /** Decoded answer text waiting for `next_node` to be known. */
  private held = "";
  // String tokenizer state, kept across chunks.
  private inString = false;
  private role: StringRole = "other";
  private stringText = "";
  private escape = false;
  private unicodeDigits: string | undefined;
  private pendingHigh = "";
  private literal = "";

  /** True once `next_node` is known to be terminal (`final_response` or legacy `null`). */
  get isFinishAction(): boolean {
    return this.terminal === true;
  }

  /** True once `next_node` is known to be a tool call or another opcode: nothing will be emitted. */
  get isNonTerminal(): boolean {
    return this.terminal === false;
  }

  /** The `next_node` value once read (`null` for the legacy terminal). */
  get nextNode(): string | null | undefined {
    return this.nodeValue;
  }

  /** Characters of answer text returned so far. */
  get emittedCount(): number {
    return this.emitted;
  }

  /** True once the top-level object has closed. */
  get isComplete(): boolean {
    return this.finished;
  }

  /** Feeds a chunk of the raw reply; returns the answer text to show for it (often ""). */
  feed(chunk: string): string {
    if (this.stopped()) return "";
    let out = "";
    for (let index = 0; index < chunk.length; index += 1) {
      if (this.inString && this.role === "other" && !this.escape && this.unicodeDigits === undefined) {
        // Inside a string nobody reads: jump to the next quote or backslash.
        index = skipPlainText(chunk, index);
        if (index >= chunk.length) break;
      }
      out += this.step(chunk[index] as string);
      if (this.stopped()) break;
    }
    return this.release(out);
  }

  /** Call when the reply has ended: returns held text that can now be shown (a lone trailing surrogate). */
  end(): string {
    if (this.terminal !== true) return "";
    const rest = this.pendingHigh;
    this.pendingHigh = "";
    this.emitted += rest.length;
    return rest;
  }

  private stopped(): boolean {
    return this.finished || this.terminal === false;
  }

  private release(decoded: string): string {
    if (this.terminal === false) {
      this.held = "";
      return "";
    }
    let text = this.pendingHigh + decoded;
    this.pendingHigh = "";
    // A high surrogate at the end may be half of a pair that the next chunk completes.
    const last = text.charCodeAt(text.length - 1);
    if (text.length > 0 && last >= 0xd800 && last <= 0xdbff) {
      this.pendingHigh = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (this.terminal === undefined) {
      this.held += text;
      return "";
    }
    const shown = this.held + text;
    this.held = "";
    this.emitted += shown.length;
    return shown;
  }

  /** Advances the tokenizer by one character; returns decoded answer text, if any. */
  private step(char: string): string {
    if (this.inString) return this.stringChar(char);
    if (!this.started) {
      if (char === "{") {
        this.started = true;
        this.stack.push({ kind: "object", slot: "key", key: "" });
      }
      return "";
    }
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) return "";
    if (char === " " || char === "\n" || char === "\r" || char === "\t") {
      this.endLiteral(frame);
      return "";
    }
    if (char === '"') {
      this.openString(frame);
      return "";
    }
    if (char === "{" || char === "[") {
      this.onValueStart(frame, char === "[" ? "array" : "object");
      this.stack.push({
        kind: char === "{" ? "object" : "array",
        slot: char === "{" ? "key" : "value",
        key: "",
      });
      return "";
    }
    if (char === "}" || char === "]") {
      this.endLiteral(frame);
      this.stack.pop();
      const parent = this.stack[this.stack.length - 1];
      if (parent === undefined) this.finished = true;
      else parent.slot = "comma";
      return "";
    }
    if (char === ":") {
      if (frame.slot === "colon") frame.slot = "value";
      return "";
    }
    if (char === ",") {
      this.endLiteral(frame);
      frame.slot = frame.kind === "object" ? "key" : "value";
      return "";
    }
    if (frame.slot === "value") this.literal += char;
    return "";
  }

  private openString(frame: Frame): void {
    this.inString = true;
    this.stringText = "";
    if (frame.kind === "object" && frame.slot === "key") {
      this.role = "key";
      return;
    }
    this.role = this.valueRole(frame);
    this.onValueStart(frame, "string");
    if (this.role === "answer") this.answerClaimed = true;
  }

  /** Which string value this is: only `next_node` and the answer paths matter. */
  private valueRole(frame: Frame): StringRole {
    if (frame.kind !== "object") return "other";
    const depth = this.stack.length;
    if (depth === 1 && frame.key === "next_node") return "next_node";
    if (this.answerClaimed) return "other";
    if (depth === 1 && (TOP_ANSWER_KEYS.has(frame.key) || frame.key === "args")) return "answer";
    if (depth === 2 && this.stack[0]?.key === "args" && ARGS_ANSWER_KEYS.has(frame.key)) return "answer";
    return "other";
  }

  /** A value begins in `frame`: a top-level `plan` array marks a legacy parallel action. */
  private onValueStart(frame: Frame, kind: Container | "string"): void {
    if (this.stack.length === 1 && frame.key === "plan" && kind === "array") this.decide(false);
    if (frame.kind === "object") frame.slot = "comma";
  }

  private endLiteral(frame: Frame): void {
    if (this.literal.length === 0) return;
    if (
      this.stack.length === 1 &&
      frame.kind === "object" &&
      frame.key === "next_node" &&
      this.literal === "null"
    ) {
      this.nodeValue = null;
      this.decide(true);
    }
    this.literal = "";
    if (frame.kind === "object") frame.slot = "comma";
  }

  private decide(terminal: boolean): void {
    if (this.terminal === undefined) this.terminal = terminal;
  }

  private stringChar(char: string): string {
    if (this.unicodeDigits !== undefined) {
      this.unicodeDigits += char;
      if (this.unicodeDigits.length < 4) return "";
      const code = Number.parseInt(this.unicodeDigits, 16);
      this.unicodeDigits = undefined;
      return this.decoded(Number.isNaN(code) ? "\uFFFD" : String.fromCharCode(code));
    }
    if (this.escape) {
      this.escape = false;
      if (char === "u") {
        this.unicodeDigits = "";
        return "";
      }
      return this.decoded(ESCAPES[char] ?? char);
    }
    if (char === "\\") {
      this.escape = true;
      return "";
    }
    if (char === '"') {
      this.closeString();
      return "";
    }
    return this.decoded(char);
  }

  private decoded(text: string): string {
    if (this.role === "answer") return text;
    if (this.role === "key" || this.role === "next_node") this.stringText += text;
    return "";
  }

  private closeString(): void {
    this.inString = false;
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) return;
    if (this.role === "key") {
      frame.key = this.stringText;
      frame.slot = "colon";
    } else if (this.role === "next_node") {
      this.nodeValue = this.stringText;
      this.decide(this.stringText.trim() === "final_response");
    }
    this.role = "other";
  }
}

/** Index of the next `"` or `\\` at or after `from` (the string's length when there is none). */
function skipPlainText(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 34 || code === 92) return index;
  }
  return text.length;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
