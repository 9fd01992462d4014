const OPEN_TAG = "<think>";
const CLOSE_TAG = "</think>";

/** What one piece of content amounts to: reasoning from a leading think block, and the content proper. */
export interface ThinkTagSplit {
  reasoning: string;
  content: string;
}

type Where = "start" | "thinking" | "after" | "content";

/**
 * Splits reply content whose reasoning sits in a leading `<think>…</think>` block (DeepSeek-R1- and
 * Qwen-style models on vLLM, Ollama, LM Studio, some OpenRouter routes) into reasoning and content, delta
 * by delta: tags split across deltas are held back until they are whole. Only a block at the very start
 * (after whitespace) counts; content that does not open with one passes through unchanged, and tags later
 * on (inside a JSON string, say) are content. See docs/openai-client.md.
 */
export class ThinkTagSplitter {
  #where: Where = "start";
  /** Text not passed on yet: a possible tag's beginning, or whitespace that may turn out to be trailing. */
  #held = "";
  #reasoningStarted = false;

  /** Feeds one content delta; returns what can be passed on now. */
  push(delta: string): ThinkTagSplit {
    this.#held += delta;
    return this.#drain(false);
  }

  /** The reply ended: passes on whatever was held back (an unclosed block is all reasoning). */
  end(): ThinkTagSplit {
    return this.#drain(true);
  }

  #drain(final: boolean): ThinkTagSplit {
    const out: ThinkTagSplit = { reasoning: "", content: "" };
    for (;;) {
      if (this.#where === "content") {
        out.content += this.#held;
        this.#held = "";
        return out;
      }
      if (this.#where === "start") {
        const text = this.#held.trimStart();
        if (text.startsWith(OPEN_TAG)) {
          this.#held = text.slice(OPEN_TAG.length);
          this.#where = "thinking";
        } else if (!final && OPEN_TAG.startsWith(text)) return out;
        else this.#where = "content";
        continue;
      }
      if (this.#where === "after") {
        this.#held = this.#held.trimStart();
        if (this.#held === "") return out;
        this.#where = "content";
        continue;
      }
      this.#think(out, final);
      if (this.#where === "thinking") return out;
    }
  }

  /** Inside the block: reasoning up to `</think>`, without the whitespace around it. */
  #think(out: ThinkTagSplit, final: boolean): void {
    const close = this.#held.indexOf(CLOSE_TAG);
    if (close >= 0) {
      out.reasoning += this.#reasoning(this.#held.slice(0, close).trimEnd());
      this.#held = this.#held.slice(close + CLOSE_TAG.length);
      this.#where = "after";
      return;
    }
    if (final) {
      out.reasoning += this.#reasoning(this.#held.trimEnd());
      this.#held = "";
      return;
    }
    const keep = heldBackLength(this.#held);
    out.reasoning += this.#reasoning(this.#held.slice(0, this.#held.length - keep));
    this.#held = this.#held.slice(this.#held.length - keep);
  }

  #reasoning(text: string): string {
    const shown = this.#reasoningStarted ? text : text.trimStart();
    if (shown !== "") this.#reasoningStarted = true;
    return shown;
  }
}

/** Splits a whole reply's content at once (a reply that was not streamed). */
export function splitThinkTags(content: string): ThinkTagSplit {
  const splitter = new ThinkTagSplitter();
  const first = splitter.push(content);
  const rest = splitter.end();
  return { reasoning: first.reasoning + rest.reasoning, content: first.content + rest.content };
}

/** How much of the end of `text` to hold: trailing whitespace and what may be the start of `</think>`. */
function heldBackLength(text: string): number {
  let partial = 0;
  for (let length = Math.min(CLOSE_TAG.length - 1, text.length); length > 0; length -= 1) {
    if (CLOSE_TAG.startsWith(text.slice(text.length - length))) {
      partial = length;
      break;
    }
  }
  const before = text.slice(0, text.length - partial);
  return partial + before.length - before.trimEnd().length;
}
