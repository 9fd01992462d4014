// Usage: tsx test/bench/cpu-profile-summary.ts <file.cpuprofile> [top=25]
// Prints the frames with the most self time, the most total (inclusive) time, and self time by file,
// from a `node --cpu-prof` profile (the main thread's: CPU.*.0.001.cpuprofile).
import { readFileSync } from "node:fs";
import { z } from "zod";

const CpuProfile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});
export type CpuProfile = z.infer<typeof CpuProfile>;

export interface ProfileTimes {
  totalMs: number;
  /** [frame, ms], most first. */
  self: [string, number][];
  total: [string, number][];
  files: [string, number][];
}

const shortUrl = (url: string) =>
  url.replace(/^file:\/\/.*?\/(packages|server|test|apps)\//, "$1/").replace(/^.*node_modules\//, "");

/** Self and inclusive time per frame (function and file), and self time per file, in ms. */
export function getProfileTimes(profile: CpuProfile): ProfileTimes {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const frame = byId.get(id)?.callFrame;
    return frame === undefined ? "?" : `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const files = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let totalMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    totalMs += ms;
    add(self, label(id), ms);
    add(files, shortUrl(byId.get(id)?.callFrame.url ?? "") || "(native)", ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = label(at);
      if (!seen.has(key)) add(total, key, ms);
      seen.add(key);
    }
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { totalMs, self: sorted(self), total: sorted(total), files: sorted(files) };
}

if (process.argv[1]?.endsWith("cpu-profile-summary.ts")) {
  const [file, topArg] = process.argv.slice(2);
  const top = Number(topArg ?? 25);
  if (file === undefined || !Number.isInteger(top) || top < 1) {
    throw new Error("usage: cpu-profile-summary.ts <file.cpuprofile> [top, a positive integer]");
  }
  const times = getProfileTimes(CpuProfile.parse(JSON.parse(readFileSync(file, "utf8"))));
  const percent = (ms: number) => `${((100 * ms) / times.totalMs).toFixed(1).padStart(5)} %`;
  const print = (title: string, rows: [string, number][]) => {
    console.log(`\n${title}:`);
    for (const [key, ms] of rows.slice(0, top)) console.log(`${percent(ms)}  ${key}`);
  };
  console.log(`profile of ${times.totalMs.toFixed(0)} ms`);
  print("self time by frame", times.self);
  print("total time by frame", times.total);
  print("self time by file", times.files);
}
