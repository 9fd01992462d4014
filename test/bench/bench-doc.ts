/** The markers around one benchmark's generated section in docs/benchmarks.md. */
export function getSectionMarkers(name: string): { begin: string; end: string } {
  return { begin: `<!-- bench:${name}:begin -->`, end: `<!-- bench:${name}:end -->` };
}

/**
 * Replaces the generated section of benchmark `name` in the document (text between its markers), or
 * inserts it before the `<!-- bench:results:end -->` marker, or at the end when that is missing too.
 * Everything outside the markers (written by hand) is kept as it is.
 */
export function applyBenchSection(doc: string, section: { name: string; body: string }): string {
  const { begin, end } = getSectionMarkers(section.name);
  const block = `${begin}\n\n${section.body.trim()}\n\n${end}`;
  const start = doc.indexOf(begin);
  if (start >= 0) {
    const stop = doc.indexOf(end, start);
    if (stop < 0) throw new Error(`docs/benchmarks.md has ${begin} without ${end}: restore the end marker.`);
    return doc.slice(0, start) + block + doc.slice(stop + end.length);
  }
  const resultsEnd = doc.indexOf("<!-- bench:results:end -->");
  if (resultsEnd >= 0) return `${doc.slice(0, resultsEnd)}${block}\n\n${doc.slice(resultsEnd)}`;
  return `${doc.trimEnd()}\n\n${block}\n`;
}

/** The command line that reproduces a run, as a reader would type it. */
export function getBenchCommand(argv: readonly string[]): string {
  const args = argv.filter((arg) => arg.length > 0);
  return args.length === 0 ? "npm run bench" : `npm run bench -- ${args.join(" ")}`;
}
