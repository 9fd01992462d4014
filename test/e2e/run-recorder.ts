import type { Page } from "@playwright/test";

/**
 * Records, inside the page, every state the run UI passes through: a MutationObserver notes each change
 * of a tool node's `data-run-state`, of the answer's text and of the thinking channel's length, with the
 * time it was seen. Polling from the test could miss a state that lasts one frame; this cannot.
 */

/** One observed change. */
export interface RunSample {
  at: number;
  /** `tool-node-<name>` states by tool name (`none` when the attribute is absent). */
  nodes: Record<string, string>;
  answer: string | null;
  thinkingLength: number | null;
  status: string | null;
}

declare global {
  interface Window {
    __runSamples?: RunSample[];
    __runRecorder?: MutationObserver;
  }
}

/** Starts recording (again, from an empty log). */
export async function startRunRecorder(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__runRecorder?.disconnect();
    const samples: RunSample[] = [];
    window.__runSamples = samples;
    let last = "";
    const take = () => {
      const nodes: Record<string, string> = {};
      for (const element of document.querySelectorAll<HTMLElement>("[data-testid^='tool-node-']")) {
        const name = element.dataset.testid!.slice("tool-node-".length);
        nodes[name] = element.dataset.runState ?? "none";
      }
      const answer = document.querySelector<HTMLElement>("[data-testid='run-answer']");
      const thinking = document.querySelector<HTMLElement>("[data-testid='run-thinking']");
      const status = document.querySelector<HTMLElement>("[data-testid='run-status']");
      const sample = {
        nodes,
        answer: answer ? (answer.textContent ?? "") : null,
        thinkingLength: thinking?.dataset.length ? Number(thinking.dataset.length) : null,
        status: status ? (status.textContent ?? "").trim() : null,
      };
      const key = JSON.stringify(sample);
      if (key === last) return;
      last = key;
      samples.push({ at: performance.now(), ...sample });
    };
    const observer = new MutationObserver(take);
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["data-run-state", "data-length", "data-testid"],
    });
    window.__runRecorder = observer;
    take();
  });
}

/** The samples recorded so far. */
export async function getRunSamples(page: Page): Promise<RunSample[]> {
  return page.evaluate(() => window.__runSamples ?? []);
}

/** The distinct states a tool went through, in order (`none`/`idle` repeats collapsed). */
export function getStateSequence(samples: readonly RunSample[], tool: string): string[] {
  const states: string[] = [];
  for (const sample of samples) {
    const state = sample.nodes[tool];
    if (state !== undefined && states.at(-1) !== state) states.push(state);
  }
  return states;
}

/** When a tool was first seen in one of these states; Infinity when never. */
export function getFirstSeen(samples: readonly RunSample[], tool: string, states: readonly string[]): number {
  return samples.find((sample) => states.includes(sample.nodes[tool] ?? ""))?.at ?? Infinity;
}

/** The distinct non-empty texts a field showed, in order. */
export function getDistinctValues<T>(
  samples: readonly RunSample[],
  read: (sample: RunSample) => T | null,
): T[] {
  const values: T[] = [];
  for (const sample of samples) {
    const value = read(sample);
    if (value !== null && value !== "" && values.at(-1) !== value) values.push(value);
  }
  return values;
}
