import type { Queryable } from "../db/database.ts";

// Outgoing e-mail is written to the outbox table instead of being sent (our design: a simulator has no mail server).
// Tests and the CLI read it through GET /api/dev/outbox (admins only).

export interface Mail {
  readonly organisationId: string | null;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly link: string | null;
}

export const queueMail = async (q: Queryable, mail: Mail, now: string) => {
  await q.query("insert into outbox (organisation_id, to_email, subject, body, link, created_at) values ($1, $2, $3, $4, $5, $6)", [
    mail.organisationId,
    mail.to,
    mail.subject,
    mail.body,
    mail.link,
    now,
  ]);
};
