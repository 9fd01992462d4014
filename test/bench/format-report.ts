import type { BenchReport, BenchTable } from "./bench-report.js";
import { formatMachine } from "./machine-info.js";

/** A Markdown table with padded columns, readable as plain text too. Numbers align right. */
export function formatTable(table: BenchTable): string {
  const cells = table.rows.map((row) => row.map((cell) => String(cell)));
  const widths = table.columns.map((column, index) =>
    Math.max(3, column.length, ...cells.map((row) => (row[index] ?? "").length)),
  );
  const numeric = table.columns.map((_, index) => table.rows.every((row) => typeof row[index] === "number"));
  const pad = (text: string, index: number) =>
    numeric[index] ? text.padStart(widths[index]!) : text.padEnd(widths[index]!);
  const line = (row: readonly string[]) => `| ${row.map((cell, index) => pad(cell, index)).join(" | ")} |`;
  const rule = `| ${widths.map((width, index) => (numeric[index] ? `${"-".repeat(width - 1)}:` : "-".repeat(width))).join(" | ")} |`;
  return [line(table.columns), rule, ...cells.map(line)].join("\n");
}

/**
 * The report of one benchmark as Markdown: title, `header` lines (the command and date, in the docs),
 * machine, tables, key lines, targets, notes.
 */
export function formatReport(report: BenchReport, header: readonly string[] = []): string {
  const parts: string[] = [`### ${report.title}`, ""];
  if (header.length > 0) parts.push(...header, "");
  parts.push(formatMachine(report.machine));
  for (const table of report.tables) parts.push("", `**${table.title}**`, "", formatTable(table));
  if (report.lines.length > 0) parts.push("", "```", ...report.lines, "```");
  if (report.targets.length > 0) {
    parts.push(
      "",
      formatTable({
        title: "targets",
        columns: ["target", "measured", "met"],
        rows: report.targets.map((check) => [check.target, check.measured, check.met ? "yes" : "**no**"]),
      }),
    );
  }
  if (report.notes.length > 0) parts.push("", ...report.notes.map((note) => `- ${note}`));
  return parts.join("\n");
}

/** Rounds for tables: at most `digits` decimals, no trailing noise. */
export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
