import type { RunEvent, RunStatusMessage } from "@waddle/protocol";

export type RunEventListener = (event: RunEvent) => void;
export type RunStatusListener = (message: RunStatusMessage) => void;

/**
 * In-process fan-out of stored events and status changes. The run manager publishes an event only after
 * the store has it, so a listener that registers and then reads the store sees every event exactly once.
 */
export class RunEventHub {
  private readonly eventListeners = new Set<RunEventListener>();
  private readonly statusListeners = new Set<RunStatusListener>();
  private readonly runListeners = new Map<string, Set<RunEventListener>>();

  /** Every event of every run; returns the unsubscribe function. */
  onEvent(listener: RunEventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** The events of one run. */
  onRunEvent(runId: string, listener: RunEventListener): () => void {
    const listeners = this.runListeners.get(runId) ?? new Set<RunEventListener>();
    listeners.add(listener);
    this.runListeners.set(runId, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.runListeners.delete(runId);
    };
  }

  onStatus(listener: RunStatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  publishEvent(event: RunEvent): void {
    for (const listener of this.eventListeners) listener(event);
    for (const listener of this.runListeners.get(event.runId) ?? []) listener(event);
  }

  publishStatus(message: RunStatusMessage): void {
    for (const listener of this.statusListeners) listener(message);
  }
}
