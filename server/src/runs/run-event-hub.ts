import type { RunEvent, RunStatusMessage } from "@waddle/protocol";

export type RunEventListener = (event: RunEvent) => void;
export type RunStatusListener = (message: RunStatusMessage) => void;
export type RunChangeListener = (runId: string) => void;

/**
 * In-process fan-out of stored events and status changes. A run's recorder publishes an event only after
 * the store has it, so a listener that registers and then reads the store sees every event exactly once.
 */
export class RunEventHub {
  private readonly eventListeners = new Set<RunEventListener>();
  private readonly statusListeners = new Set<RunStatusListener>();
  private readonly runListeners = new Map<string, Set<RunEventListener>>();
  private readonly changeListeners = new Set<RunChangeListener>();

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

  /** Runs that some listener follows by id (`onRunEvent`). */
  getFollowedRunIds(): Iterable<string> {
    return this.runListeners.keys();
  }

  onStatus(listener: RunStatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * A run's stored row changed in a way its watchers care for: it was created, its status changed (every
   * `publishStatus` counts), or its outcome was saved (a pause's metadata, a refused resume's error).
   */
  onRunChange(listener: RunChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  publishEvent(event: RunEvent): void {
    for (const listener of this.eventListeners) listener(event);
    for (const listener of this.runListeners.get(event.runId) ?? []) listener(event);
  }

  publishStatus(message: RunStatusMessage): void {
    for (const listener of this.statusListeners) listener(message);
    this.publishRunChange(message.runId);
  }

  /** Publish only after the store has the change: listeners read the run from it. */
  publishRunChange(runId: string): void {
    for (const listener of this.changeListeners) listener(runId);
  }
}
