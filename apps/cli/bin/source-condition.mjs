// Module resolution hook: adds the "source" condition, so @waddle/* packages resolve to src/*.ts.
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes("source")
    ? context.conditions
    : [...context.conditions, "source"];
  return nextResolve(specifier, { ...context, conditions });
}
