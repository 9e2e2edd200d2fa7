import { periodicTask, type TaskState } from "../periodic.ts";
import type { DicomSettings } from "../../../core/model/dicom-network.ts";
import type { ServerContext } from "../context.ts";
import { describeError, log } from "../log.ts";
import { queryWorklist } from "./queue.ts";

// The periodic worklist query (issue 29: "a periodic query set per organisation ... A PACS or worklist provider that is
// down gets a clear error, and the periodic query tries again next period"). One ticker per server process looks every
// `tickMs` at the organisations whose worklist settings are enabled and queries each whose period has come: every
// `intervalMinutes` after its last query, so a change of settings takes effect at the next tick without a restart.
// A query that fails (provider down, association refused, settings no longer valid) logs one line and is tried again
// next period; one that queues, matches or refuses steps logs one line with the counts.
// Several processes on one PostgreSQL: each period is claimed in the database by one process before it queries (a
// conditional upsert of the organisation's last query time in `settings`, which only one of concurrent claimers wins),
// so one process queries per period whichever of them ticks first; a process that dies mid-query leaves the period
// claimed and the next period is claimed afresh. On PGlite the process is alone and the claim costs one statement.

/** How often the ticker looks; a period is at least a minute (intervalMinutes >= 1). */
export const WORKLIST_TICK_MS = 30_000;

export interface WorklistPeriodic {
  /** Looks once: queries every enabled organisation whose period has come (tests call it; the ticker calls it). */
  tick(): Promise<void>;
  /** Stops the ticker and waits for the look under way. */
  stop(): Promise<void>;
}

const claimKey = (organisationId: string) => `worklist_last_query:${organisationId}`;

/** This process's claim of the organisation's period: true when no query was claimed within the interval before `now`. */
async function claimPeriod(ctx: ServerContext, organisationId: string, intervalMinutes: number, now: number): Promise<boolean> {
  const rows = await ctx.db.query(
    `insert into settings (key, value) values ($1, $2)
     on conflict (key) do update set value = excluded.value where settings.value <= $3
     returning key`,
    [claimKey(organisationId), new Date(now).toISOString(), new Date(now - intervalMinutes * 60_000).toISOString()],
  );
  return rows.length > 0;
}

export function startWorklistPeriodic(ctx: ServerContext, tickMs = WORKLIST_TICK_MS): WorklistPeriodic {
  const queryOne = async (organisationId: string, state: TaskState) => {
    try {
      const report = await queryWorklist(ctx, organisationId, false);
      const count = (a: string) => report.steps.filter((s) => s.action === a).length;
      const [queued, matched, refused] = [count("queued"), count("matched"), count("refused")];
      if (queued + matched + refused > 0 && !state.stopped)
        log.info("worklist_queried", { organisation: organisationId, queued, matched, seen: count("seen"), refused });
    } catch (e) {
      if (!state.stopped)
        log.warn("worklist_query_failed", { organisation: organisationId, error: describeError(e), retry: "next period" });
    }
  };

  const look = async (state: TaskState) => {
    const rows = await ctx.db.query<{ organisation_id: string; body: DicomSettings }>(
      "select organisation_id, body from dicom_settings where (body->'worklist'->>'enabled') = 'true' order by organisation_id",
    );
    for (const r of rows) {
      if (state.stopped) return;
      const interval = r.body.worklist?.intervalMinutes;
      if (typeof interval !== "number" || !(interval >= 1)) continue;
      if (await claimPeriod(ctx, r.organisation_id, interval, ctx.now())) await queryOne(r.organisation_id, state);
    }
  };

  const task = periodicTask({
    everyMs: tickMs,
    atStart: false,
    pass: look,
    failed: (e) => log.warn("worklist_tick_failed", { error: describeError(e) }),
  });
  return { tick: async () => void (await task.run()), stop: task.stop };
}
