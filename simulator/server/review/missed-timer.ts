import { periodicTask, type TaskState } from "../periodic.ts";
import type { ServerContext } from "../context.ts";
import { describeError, log } from "../log.ts";
import { serverActor } from "../notify/notices.ts";
import { sweepMissed } from "./missed.ts";

// Missed sessions found without anyone looking (issue 31 §3: "Reminders go out for missed sessions"): sweepMissed runs
// when the review queue is read, and this timer runs it for every organisation with an active programme at start and
// every MISSED_SWEEP_MS, so a reminder goes out even when nobody opens the queue. Several processes of a cluster each
// run their own timer: the items' unique (programme, session) and the notices' unique keys keep each item and each
// reminder once, whichever process comes first. The notices it sends are the server's own (notify/notices.ts).

export const MISSED_SWEEP_MS = 5 * 60_000;

export interface MissedSweepTimer {
  /** Sweeps every organisation with an active programme once (the timer calls it; tests may). */
  tick(): Promise<void>;
  /** Stops the timer and waits for the sweep under way. */
  stop(): Promise<void>;
}

export const startMissedSweep = (ctx: ServerContext, everyMs = MISSED_SWEEP_MS): MissedSweepTimer => {
  const sweepAll = async (state: TaskState) => {
    const orgs = await ctx.db.query<{ organisation_id: string }>(
      "select distinct organisation_id from home_programmes where state = 'active' order by organisation_id",
    );
    for (const { organisation_id: org } of orgs) {
      if (state.stopped) return;
      // One organisation failing (its data, a statement refused) does not keep the others' reminders back.
      await sweepMissed(ctx, org, serverActor).catch((e: unknown) => {
        if (!state.stopped) log.warn("missed_sweep_failed", { organisation: org, error: describeError(e), retry: "next sweep" });
      });
    }
  };

  const task = periodicTask({
    everyMs,
    atStart: true,
    pass: sweepAll,
    failed: (e) => log.warn("missed_sweep_failed", { error: describeError(e), retry: "next sweep" }),
  });
  return { tick: async () => void (await task.run()), stop: task.stop };
};
