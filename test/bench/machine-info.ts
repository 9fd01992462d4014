import os from "node:os";
import type { MachineInfo } from "./bench-report.js";
import { getMeasuredCode } from "./measured-code.js";

/** Cores, CPU model, Node version, the 1-minute load average as the benchmark starts, and the code run. */
export function getMachineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    code: getMeasuredCode().description,
    cores: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown CPU",
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    totalMemGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

/**
 * `machine: 2 cores, AMD EPYC, Node v20.20.2, linux x64, 7.8 GB RAM, load average 1.9 …`, then, after a
 * blank line, which code ran (when known).
 */
export function formatMachine(machine: MachineInfo): string {
  const end = machine.loadAverageEnd === undefined ? "" : `, ${machine.loadAverageEnd} at end`;
  const line =
    `machine: ${machine.cores} cores, ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}, ` +
    `${machine.totalMemGb} GB RAM, load average (1 min) ${machine.loadAverage} at start${end}`;
  return machine.code === undefined ? line : `${line}\n\n${machine.code}`;
}
