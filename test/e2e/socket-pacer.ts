import type { Page } from "@playwright/test";

/**
 * Makes the page show every socket message it receives, one after another. The run store applies live
 * events once per animation frame, so when the page falls behind (a loaded machine), the pieces of a
 * streamed answer that arrived meanwhile are folded in one frame and the page never shows the answer
 * growing. Paced, each message the page's WebSockets receive is held in a queue and handed on in an
 * animation frame of its own, two frames after the one before: the store's flush for a message (scheduled
 * in the frame after it arrived, and run before the pacer's own callback there) has committed to the
 * DOM before the next message arrives. Nothing is dropped or reordered; only the page's pace changes.
 *
 * Call before the page loads (it is an init script).
 */
export async function paceSocketMessages(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    class PacedWebSocket extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        const queue: MessageEvent[] = [];
        const passing = new WeakSet<Event>();
        let pumping = false;
        const pump = () => {
          const next = queue.shift();
          if (next) {
            passing.add(next);
            this.dispatchEvent(next);
          }
          if (queue.length === 0) pumping = false;
          else requestAnimationFrame(() => requestAnimationFrame(pump));
        };
        // Registered before any listener of the page's own (and `onmessage`), so it sees each message first.
        super.addEventListener("message", (event) => {
          if (passing.has(event)) return;
          event.stopImmediatePropagation();
          queue.push(new MessageEvent("message", { data: event.data as unknown, origin: event.origin }));
          if (pumping) return;
          pumping = true;
          requestAnimationFrame(pump);
        });
      }
    }
    window.WebSocket = PacedWebSocket;
  });
}
