import type { TestRunRecord } from "@waddle/protocol";

const XML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Characters XML 1.0 cannot hold: the C0 controls other than tab, newline and carriage return. */
function isXmlChar(code: number): boolean {
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Text safe in XML content and attributes (characters XML 1.0 forbids are dropped). */
function escapeXml(text: string): string {
  const kept = [...text].filter((char) => isXmlChar(char.codePointAt(0) ?? 0)).join("");
  return kept.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * A test run as JUnit XML, the report CI systems read: one `<testsuite>` for the agent and version, one
 * `<testcase>` per case with a `<failure>` per failed check (its words, then expected and actual), or
 * `<skipped>`.
 */
export function createJunitReport(record: TestRunRecord, options: { durationMs: number }): string {
  const name = `${record.agentId}@v${record.agentVersion}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="waddle test" tests="${record.cases.length}" failures="${record.totals.failed}" skipped="${record.totals.skipped}" time="${seconds(options.durationMs)}">`,
    `  <testsuite name="${escapeXml(name)}" tests="${record.cases.length}" failures="${record.totals.failed}" skipped="${record.totals.skipped}" errors="0" time="${seconds(options.durationMs)}" timestamp="${escapeXml(record.createdAt)}">`,
  ];
  for (const result of record.cases) {
    const caseName = escapeXml(result.name ?? result.caseId);
    lines.push(
      `    <testcase classname="${escapeXml(name)}" name="${caseName}" time="${seconds(result.durationMs)}">`,
    );
    for (const failure of result.failures) {
      const detail = `expected: ${JSON.stringify(failure.expected)}\nactual: ${JSON.stringify(failure.actual)}`;
      lines.push(
        `      <failure type="${escapeXml(failure.check)}" message="${escapeXml(failure.message ?? failure.check)}">${escapeXml(detail)}</failure>`,
      );
    }
    if (result.status === "skipped") lines.push("      <skipped/>");
    lines.push(
      `      <system-out>${escapeXml(`caseId=${result.caseId} runId=${result.runId ?? "-"} llmCalls=${result.llmCalls} tokens=${result.tokens} costUsd=${result.costUsd}`)}</system-out>`,
      "    </testcase>",
    );
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}
