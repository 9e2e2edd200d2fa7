import type { Command } from "commander";
import { ApiError } from "../../core/model/contract/errors.ts";
import type { WorklistStep } from "../../core/model/dicom-network.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import { eyeCodes, patternLabel, strategyCodes } from "../../core/model/enums.ts";
import { localTimeZone } from "../export/context.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { openSession } from "../session.ts";

// isopter worklist [--dry-run] [--json]: the organisation's worklist provider queried now (worklist/query: C-FIND for
// the station's scheduled steps of today), each new step queued on the worklist's headset. One line per step (queued,
// matched, seen, refused and why), then a summary; exit 1 when any step was refused (the others are queued all the
// same), 4 when the provider (or the server) cannot be reached.

const test = (s: WorklistStep): string =>
  [
    s.pattern !== null ? patternLabel[s.pattern] : null,
    s.strategy !== null ? strategyCodes[s.strategy].label : null,
    s.eye !== null ? eyeCodes[s.eye] : null,
  ]
    .filter(Boolean)
    .join(" ");

export function formatStep(s: WorklistStep, dryRun: boolean): string {
  if (s.action === "refused") return `${s.item}: refused: ${s.reason}`;
  if (s.action === "seen") return `${s.item}: seen (${s.reason ?? "queued before"})`;
  const p = s.patient!;
  const who = `${p.name} (${p.uniqueId}, ${p.created ? (dryRun ? "would be created" : "created") : "matched"})`;
  const when = s.scheduledAt ? ` at ${clinicTime(s.scheduledAt, localTimeZone()).time.slice(0, 5)}` : "";
  if (s.action === "matched") return `${s.item}: ${dryRun ? "would match" : "matched"} ${who}, ${test(s)}${when}; no headset is set`;
  return `${s.item}: ${dryRun ? "would queue" : "queued"} ${test(s)} for ${who}${when}`;
}

export function registerWorklist(program: Command, io: CliIo): void {
  defineCommand(program, "worklist", "query the organisation's worklist provider now and queue its new steps (managers)")
    .option("--dry-run", "say per step what would happen (queued, matched, seen, refused and why) and write nothing", false)
    .addHelpText(
      "after",
      `
The provider, the station's AE title, the headset and the local protocol codes are the organisation's DICOM settings.
A step seen before is not queued again. Exit code 1 when any step was refused, 4 when the provider cannot be reached.`,
    )
    .action(async (o: { dryRun: boolean }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const session = openSession(shared, io);
      const report = await session.api.call("worklist.query", { body: { dryRun: o.dryRun } }).catch((e: unknown) => {
        if (e instanceof ApiError && e.isType("unavailable")) throw new CliError(ExitCode.Unreachable, e.message);
        throw e;
      });
      const count = (a: WorklistStep["action"]) => report.steps.filter((s) => s.action === a).length;
      const summary = {
        dryRun: o.dryRun,
        steps: report.steps.length,
        queued: count("queued"),
        matched: count("matched"),
        seen: count("seen"),
        refused: count("refused"),
      };
      if (shared.json) io.stdout.write(JSON.stringify({ ...summary, report: report.steps }) + "\n");
      else {
        for (const s of report.steps) io.stdout.write(formatStep(s, o.dryRun) + "\n");
        io.stdout.write(
          `${summary.steps} steps: ${summary.queued} ${o.dryRun ? "would be queued" : "queued"}, ${summary.matched} ${
            o.dryRun ? "would be matched" : "matched"
          }, ${summary.seen} seen before, ${summary.refused} refused\n`,
        );
      }
      if (summary.refused > 0) throw new CliError(ExitCode.Failure, `${summary.refused} of ${summary.steps} steps refused (named above)`);
    });
}
