/**
 * The stops (unsubscribes, unwatches, removed listeners) a transport still holds on the shared connection,
 * so that closing the transport lets go of all of them and leaves the connection open for the others.
 */
export interface StopSet {
  /** Keeps a stop; returns it wrapped so that calling it early also forgets it. */
  hold(stop: () => void): () => void;
  stopAll(): void;
}

export function createStopSet(): StopSet {
  const held = new Set<() => void>();
  return {
    hold(stop) {
      held.add(stop);
      return () => {
        if (held.delete(stop)) stop();
      };
    },
    stopAll() {
      const stops = [...held];
      held.clear();
      for (const stop of stops) stop();
    },
  };
}
