import type { Queryable } from "../db/database.ts";
import type { ServerContext } from "../context.ts";
import type { Sender } from "./sender.ts";

// Each message once (issue 31 §3): a key per missed session or flagged item. The key's row and the message are written
// in one transaction; a second call with the same key sends nothing. Every message sent or not sent is audited.

/**
 * Who caused the notice: the user whose call found the missed session, the headset whose result was flagged, or the
 * server itself (its timer's sweep of missed sessions: review/missed-timer.ts), recorded as the audit trail records
 * the server's own events (actor kind "anonymous", no id, the server's name: audit/trail.ts's chain start).
 */
export interface NoticeActor {
  readonly actorKind: "user" | "headset" | "anonymous";
  readonly actorId: string | null;
  readonly actorName: string;
  readonly address: string | null;
}

export const serverActor: NoticeActor = { actorKind: "anonymous", actorId: null, actorName: "Isopter server", address: null };

export interface Notice {
  readonly organisationId: string;
  /** e.g. "missed:<programme>:<session>", "flagged:<item>", "repeat:<item>". */
  readonly key: string;
  /** null: the recipient has no e-mail on record; the notice is noted (audited) and nothing is sent. */
  readonly to: string | null;
  readonly subject: string;
  readonly body: string;
  readonly patientId: string;
  readonly recordType: string;
  readonly recordId: string;
}

/** Sends the notice unless its key was seen before; true when this call handled it. */
export const sendOnce = async (
  ctx: ServerContext,
  q: Queryable,
  sender: Sender,
  actor: NoticeActor,
  n: Notice,
  now: string,
): Promise<boolean> => {
  const outcome = n.to === null ? "no-address" : "sent";
  const fresh = await q.query(
    `insert into review_notices (organisation_id, key, recipient, outcome, created_at) values ($1, $2, $3, $4, $5)
     on conflict (organisation_id, key) do nothing returning key`,
    [n.organisationId, n.key, n.to, outcome, now],
  );
  if (fresh.length === 0) return false;
  if (n.to !== null)
    await sender.send(q, { organisationId: n.organisationId, to: n.to, subject: n.subject, body: n.body, link: null }, now);
  ctx.audit.record({
    organisationId: n.organisationId,
    at: now,
    ...actor,
    action: `notice.${n.key.split(":")[0]}`,
    outcome: outcome === "sent" ? "success" : "not sent: no e-mail on record",
    patientId: n.patientId,
    recordType: n.recordType,
    recordId: n.recordId,
  });
  return true;
};
