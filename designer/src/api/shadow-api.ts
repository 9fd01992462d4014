import {
  ShadowReport,
  ShadowReportsResponse,
  type ShadowRequest,
  type ShadowReportSummary,
} from "@waddle/protocol";
import { z } from "zod";
import { route, type ApiRequester } from "./api-requester.js";

/** The answer to starting one: the stored report itself, or (should it run in the background) its id. */
const StartShadowResponse = z.union([
  ShadowReport.transform((report) => report.id),
  z.object({ reportId: z.string() }).transform((answer) => answer.reportId),
]);

/** `/api/agents/:id/shadow`: a candidate version replayed on the traffic a channel served, tools never run. */
export function createShadowApi(http: ApiRequester) {
  return {
    /** The agent's stored shadow reports, newest first, without their cases. */
    async listShadowReports(agentId: string): Promise<ShadowReportSummary[]> {
      return (await http.json("GET", route`/api/agents/${agentId}/shadow`, ShadowReportsResponse)).reports;
    },

    async getShadowReport(agentId: string, reportId: string): Promise<ShadowReport> {
      return http.json("GET", route`/api/agents/${agentId}/shadow/${reportId}`, ShadowReport);
    },

    /** Runs a shadow comparison; resolves the id of its stored report. */
    async startShadow(agentId: string, body: ShadowRequest): Promise<string> {
      return http.json("POST", route`/api/agents/${agentId}/shadow`, StartShadowResponse, body);
    },
  };
}

export type ShadowApi = ReturnType<typeof createShadowApi>;
