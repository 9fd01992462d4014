/**
 * `{...base, ...patch}` without the keys whose value ends up `undefined`, so that clearing an optional
 * field removes it from the JSON instead of leaving `undefined` behind. Returns `base` when nothing changed.
 */
export function mergeDefined<T extends object>(base: T, patch: NoInfer<Partial<T>>): T {
  let changed = false;
  const next = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) {
      if (key in next) {
        delete next[key];
        changed = true;
      }
    } else if (next[key] !== value) {
      next[key] = value;
      changed = true;
    }
  }
  return changed ? (next as T) : base;
}
