import parsePrometheusTextFormat from "parse-prometheus-text-format";
import type { TestServer } from "./start-test-server.js";

/**
 * One sample of a counter or gauge as the server's `/metrics` says it now: the first sample of family
 * `name` whose labels include `labels`; 0 when there is none yet. Throws when `/metrics` does not answer.
 */
export async function readMetric(
  server: Pick<TestServer, "request">,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const response = await server.request("/metrics");
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const family = parsePrometheusTextFormat(response.text).find((entry) => entry.name === name);
  const sample = family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return Number(sample?.value ?? 0);
}
