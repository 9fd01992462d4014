import { defineTool } from "@waddle/planner";
import { z } from "zod";

/** Date parts of an instant in a time zone, e.g. for "what day is it in Tokyo". */
export function describeInstant(date: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "long",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "shortOffset",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return {
    iso: date.toISOString(),
    unixMs: date.getTime(),
    timeZone,
    local: `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`,
    offset: parts.timeZoneName === "GMT" ? "GMT+0" : (parts.timeZoneName ?? "GMT+0"),
    weekday: parts.weekday ?? "",
  };
}

const TimeZone = z
  .string()
  .max(64)
  .default("UTC")
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone such as Europe/Paris or UTC")
  .describe("IANA time zone, e.g. Europe/Paris");

export const InstantSchema = z.object({
  iso: z.string(),
  unixMs: z.number(),
  timeZone: z.string(),
  local: z.string(),
  offset: z.string(),
  weekday: z.string(),
});

/** The current time, so that the model does not guess today's date. */
export const clockNow = defineTool({
  name: "clock_now",
  desc: "The current date and time in a time zone (ISO 8601, local wall time, UTC offset, weekday).",
  args: z.object({ timeZone: TimeZone }),
  out: InstantSchema,
  sideEffects: "read",
  tags: ["time"],
  latencyHintMs: 1,
  run: ({ timeZone }) => describeInstant(new Date(), timeZone),
});

export { TimeZone };
