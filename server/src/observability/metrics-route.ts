import type { RequestHandler } from "express";
import type { ServerMetrics } from "./server-metrics.js";

/** `GET /metrics`: the Prometheus text format (behind the server's auth, like the API). */
export function createMetricsRoute(metrics: ServerMetrics): RequestHandler {
  return async (_request, response) => {
    const text = await metrics.render();
    response.setHeader("Content-Type", metrics.contentType);
    response.setHeader("Cache-Control", "no-store");
    response.send(text);
  };
}
