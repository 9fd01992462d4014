/**
 * The query box's text once another run is shown above it. A query some run was already given (the one
 * the box just started, say) would read as the shown run's, so it gives way to the shown run's own query:
 * a replay of run A never shows run B's query, and Run asks A's question again. A draft nobody ran yet is
 * the person's own typing and stays, and so does an empty box.
 */
export function getComposerQuery(input: {
  box: string;
  /** The shown run's query ("" while it is not known yet). */
  shownQuery: string;
  /** Queries runs were given: the agent's runs' and the previously shown run's. */
  ranQueries: ReadonlySet<string>;
}): string {
  const { box, shownQuery } = input;
  if (shownQuery === "" || box.trim() === "" || box === shownQuery) return box;
  return input.ranQueries.has(box) || input.ranQueries.has(box.trim()) ? shownQuery : box;
}
