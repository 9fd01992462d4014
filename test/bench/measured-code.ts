/** Which code of the workspace packages a benchmark process runs: what users run, or the sources. */
export interface MeasuredCode {
  /** True when `@waddle/*` resolve to their TypeScript sources (the `source` export condition). */
  sources: boolean;
  /** One line for the report. */
  description: string;
}

/**
 * Asks the module resolver where `@waddle/planner` comes from in this process. Without the `source`
 * condition it is the tsc build in `dist/` (what `npm start` and library users run); with it, tsx's
 * transform of `src/` (the tests, `npm run dev`), which adds esbuild helpers such as `__name`.
 */
export function getMeasuredCode(): MeasuredCode {
  const resolved = import.meta.resolve("@waddle/planner");
  const sources = !resolved.includes("/dist/");
  return {
    sources,
    description: sources
      ? "code: the workspace packages from their TypeScript sources (tsx, --conditions=source), not the build users run"
      : "code: the built workspace packages (tsc -b tsconfig.build.json → dist/), as npm start and library users run them",
  };
}
