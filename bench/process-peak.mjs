// Preloaded into a process a bench starts (node --import ./bench/process-peak.mjs ...): on exit it writes the process's
// peak RSS and CPU seconds, as one JSON line, to file descriptor 3 (the bench's pipe), so a real `isopter` is measured
// as a user runs it. The peak is VmHWM of /proc/self/status: resourceUsage().maxRSS would keep the high-water mark of
// the parent the process was forked from (Linux keeps it across exec), here the bench's server.
import { readFileSync, writeSync } from "node:fs";

process.on("exit", () => {
  const usage = process.resourceUsage();
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  const peakKb = hwm ? Number(hwm[1]) : usage.maxRSS;
  writeSync(3, JSON.stringify({ peakRssMb: peakKb / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }) + "\n");
});
