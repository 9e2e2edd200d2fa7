import type { ReviewFlag } from "../../../core/model/contract/index.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { type NoticeActor, sendOnce } from "../notify/notices.ts";
import { outboxSender, type Sender } from "../notify/sender.ts";
import type * as home from "../store/home.ts";
import { userById } from "../store/users.ts";

// Who is told what (issue 31 §3): the programme's creator (the responsible clinician) of a flagged result, the
// patient of a missed session and of a repeat asked for, at the programme's reminder address (the lend form asks for
// it: the patient record has no e-mail field, core/model/patient.ts). A programme without one: the patient's message is
// noted (audited, outcome "no-address") and nothing is sent.

/** The sender in use: the outbox, which notify/delivery.ts sends over SMTP where SMTP_URL is set (notify/sender.ts). */
export const sender: Sender = outboxSender;

const clinicianOf = async (q: Queryable, p: home.ProgrammeRow): Promise<string | null> => {
  const u = await userById(q, p.createdBy);
  return u && u.organisationId === p.organisationId ? u.email : null;
};

export const notifyFlagged = async (
  ctx: ServerContext,
  q: Queryable,
  p: home.ProgrammeRow,
  itemId: string,
  flags: readonly ReviewFlag[],
  source: { readonly deviceSn: string; readonly address: string },
  now: string,
): Promise<boolean> => {
  const actor: NoticeActor = { actorKind: "headset", actorId: source.deviceSn, actorName: source.deviceSn, address: source.address };
  const kinds = flags.map((f) => f.kind).join(", ");
  return sendOnce(
    ctx,
    q,
    sender,
    actor,
    {
      organisationId: p.organisationId,
      key: `flagged:${itemId}`,
      to: await clinicianOf(q, p),
      subject: `A home result to review: ${kinds}`,
      body: `A home result of programme ${p.id} was flagged (${kinds}). Open the review queue to read it.`,
      patientId: p.patientId,
      recordType: "review_item",
      recordId: itemId,
    },
    now,
  );
};

/** The patient's reminder of a missed session, or of a repeat asked for; once per key. */
export const notifyPatient = async (
  ctx: ServerContext,
  q: Queryable,
  actor: NoticeActor,
  p: home.ProgrammeRow,
  what: { readonly key: string; readonly subject: string; readonly body: string; readonly recordId: string },
  now: string,
): Promise<boolean> =>
  sendOnce(
    ctx,
    q,
    sender,
    actor,
    {
      organisationId: p.organisationId,
      key: what.key,
      to: p.reminderEmail,
      subject: what.subject,
      body: what.body,
      patientId: p.patientId,
      recordType: "review_item",
      recordId: what.recordId,
    },
    now,
  );
