import { periodicTask, type TaskState } from "../periodic.ts";
import type { Database } from "../db/database.ts";
import { describeError, log } from "../log.ts";
import { describeSmtpError, isPermanent, type MailTransport, type OutgoingMail } from "./smtp.ts";

// Mail delivery (issue 31 §3): the outbox is the record of every message (auth/mail.ts writes it in the transaction
// that caused it, so a message and its once-only key commit together); where SMTP is configured, this loop sends its
// unsent rows, oldest due first, and records each attempt on the row (migration 023).
// - Claim: a pass takes up to BATCH due rows with `for update skip locked` and moves their next attempt CLAIM_MS ahead
//   in one short transaction, then sends outside it; a cluster's processes each take other rows, and a process that
//   dies mid-send leaves its rows to be taken again when the claim lapses. (PGlite has one connection: one process.)
// - Once: at least once. A crash (or a lost answer) between the SMTP server's acceptance and the row's mark sends the
//   row again when its claim lapses; the Message-ID is made of the row's id, so a receiver can drop the repeat. Nothing
//   is lost: a row is marked sent only after the server has accepted it.
// - Failure: a 5xx answer is a refusal for good: the row is given up at once with the answer. Anything else (server
//   down, timeout, 4xx, a failed login) is tried again after 1 min, doubling to at most 1 h, until the mail is MAX_AGE
//   old (our choice: a reminder or a reset link older than two days is of no use); then it is given up too.

export const DELIVERY_TICK_MS = 5_000;
const BATCH = 20;
/** Longer than a send can take (smtp.ts: 10 s to connect, 10 s for the greeting, 60 s of silence). */
const CLAIM_MS = 5 * 60_000;
const FIRST_RETRY_MS = 60_000;
const LAST_RETRY_MS = 60 * 60_000;
export const MAX_AGE_MS = 2 * 24 * 60 * 60_000;

/** The wait before attempt `attempts + 1`. */
export const backoffMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LAST_RETRY_MS);

export interface QueueFigures {
  /** Rows not sent and not given up. */
  readonly queued: number;
  /** Seconds since the oldest of them was written; null when none. */
  readonly oldestQueuedSeconds: number | null;
}

export interface MailDelivery {
  /** Sends what is due now; resolves with how many rows were sent (tests call it; the ticker calls it). */
  pass(): Promise<number>;
  figures(): Promise<QueueFigures>;
  /** Stops the ticker and waits for the send under way. */
  stop(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const queueFigures = async (db: Database, now: number): Promise<QueueFigures> => {
  const r = (
    await db.query<{ n: number; oldest: string | null }>(
      "select count(*)::int as n, min(created_at) as oldest from outbox where sent_at is null and given_up_at is null",
    )
  )[0]!;
  return { queued: r.n, oldestQueuedSeconds: r.oldest ? Math.max(0, Math.round((now - Date.parse(r.oldest)) / 1000)) : null };
};

export const startDelivery = (
  ctx: { readonly db: Database; now(): number },
  transport: MailTransport,
  tickMs = DELIVERY_TICK_MS,
): MailDelivery => {
  const claim = (now: number) =>
    ctx.db.transaction((tx) =>
      tx.query<{ id: string | number; to_email: string; subject: string; body: string; created_at: string; attempts: number }>(
        `update outbox set attempts = attempts + 1, next_attempt_at = $2
         where id in (select id from outbox where sent_at is null and given_up_at is null and next_attempt_at <= $1
                      order by next_attempt_at, id limit $3 for update skip locked)
         returning id, to_email, subject, body, created_at, attempts`,
        [iso(now), iso(now + CLAIM_MS), BATCH],
      ),
    );

  const deliverOne = async (m: OutgoingMail, attempts: number): Promise<boolean> => {
    try {
      await transport.send(m);
    } catch (e) {
      const now = ctx.now();
      const why = describeSmtpError(e);
      const expired = now - Date.parse(m.createdAt) + backoffMs(attempts) > MAX_AGE_MS;
      if (isPermanent(e) || expired) {
        await ctx.db.query("update outbox set given_up_at = $2, last_error = $3 where id = $1", [m.id, iso(now), why]);
        log.error("mail_given_up", { id: m.id, attempts, error: why, reason: isPermanent(e) ? "refused" : "too old to retry" });
      } else {
        const next = iso(now + backoffMs(attempts));
        await ctx.db.query("update outbox set next_attempt_at = $2, last_error = $3 where id = $1", [m.id, next, why]);
        log.warn("mail_not_sent", { id: m.id, attempts, error: why, retryAt: next });
      }
      return false;
    }
    await ctx.db.query("update outbox set sent_at = $2, last_error = null where id = $1", [m.id, iso(ctx.now())]);
    return true;
  };

  const drain = async (state: TaskState): Promise<number> => {
    let sent = 0;
    for (;;) {
      const rows = await claim(ctx.now());
      for (const r of rows) {
        if (state.stopped) return sent; // the rest are taken again when their claim lapses
        const m = { id: String(r.id), to: r.to_email, subject: r.subject, body: r.body, createdAt: r.created_at };
        if (await deliverOne(m, r.attempts)) sent += 1;
      }
      if (rows.length < BATCH || state.stopped) return sent;
    }
  };

  const task = periodicTask({
    everyMs: tickMs,
    atStart: true,
    pass: drain,
    failed: (e) => log.warn("mail_delivery_failed", { error: describeError(e) }),
  });
  return {
    pass: async () => (await task.run()) ?? 0,
    figures: () => queueFigures(ctx.db, ctx.now()),
    async stop() {
      await task.stop();
      transport.close();
    },
  };
};
