import type { Command } from "commander";
import { toFhirAuditEvent } from "../../core/model/audit-fhir.ts";
import type { AuditFilter } from "../../core/model/audit.ts";
import { defineCommand, isoDateOption, sharedOptions } from "../command.ts";
import { badArguments } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { openSession } from "../session.ts";
import { registerAuditVerify } from "./audit-verify.ts";

// isopter audit --from DAY --to DAY [--format ndjson|fhir] [--user ID] [--patient ID] [--action NAME]: the
// organisation's audit trail (managers), oldest first; ndjson one entry a line, fhir an R4 Bundle of AuditEvents after
// IHE BALP's patterns (core/model/audit-fhir.ts). `isopter audit verify` (audit-verify.ts) checks the trail's hash chain.

const PAGE = 500;

export function registerAudit(program: Command, io: CliIo): void {
  const audit = defineCommand(program, "audit", "the organisation's audit trail (managers): who did what, when and from where")
    .option("--from <date>", "from this day (YYYY-MM-DD, UTC)", isoDateOption)
    .option("--to <date>", "up to this day, inclusive (YYYY-MM-DD, UTC)", isoDateOption)
    .option("--format <format>", "ndjson (one entry a line) or fhir (an FHIR R4 Bundle of AuditEvent)", "ndjson")
    .option("--user <id>", "only this user's actions")
    .option("--patient <id>", "only actions on this patient")
    .option("--action <name>", "only this action (a call's name, e.g. patient.get, login)")
    .action(async (o: { from?: string; to?: string; format: string; user?: string; patient?: string; action?: string }, cmd: Command) => {
      if (o.format !== "ndjson" && o.format !== "fhir") throw badArguments(`--format must be ndjson or fhir, got '${o.format}'`);
      if (o.from && o.to && o.from > o.to) throw badArguments("--from must not be after --to");
      const session = openSession(sharedOptions(cmd), io);
      const filter: AuditFilter = {
        from: o.from ?? null,
        to: o.to ?? null,
        userId: o.user ?? null,
        patientId: o.patient ?? null,
        action: o.action ?? null,
      };
      // Newest first from the server; the search itself is audited while paging, so pages are read from a fixed total
      // and the output is the entries up to the moment the first page was read, oldest first.
      const first = await session.api.call("audit.search", { body: { filter, page: 0, quantity: PAGE } });
      const entries = [...first.entries];
      const newestId = first.entries[0]?.id ?? 0;
      for (let page = 1; entries.length < first.total; page++) {
        const next = await session.api.call("audit.search", { body: { filter, page, quantity: PAGE } });
        if (next.entries.length === 0) break;
        entries.push(...next.entries);
      }
      const seen = new Set<number>();
      const ordered = entries.filter((e) => e.id <= newestId && !seen.has(e.id) && seen.add(e.id)).sort((a, b) => a.id - b.id);
      if (o.format === "ndjson") {
        for (const e of ordered) io.stdout.write(JSON.stringify(e) + "\n");
        return;
      }
      const organisation = await session.api.call("organisation.current", {});
      const bundle = {
        resourceType: "Bundle",
        type: "collection",
        timestamp: new Date().toISOString(),
        entry: ordered.map((e) => ({ resource: toFhirAuditEvent(e, organisation.id, { url: session.server }) })),
      };
      io.stdout.write(JSON.stringify(bundle) + "\n");
    });
  registerAuditVerify(audit, io);
}
