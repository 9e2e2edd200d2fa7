import type { Queryable } from "../db/database.ts";

// Every outgoing e-mail (password resets, invitations, home-monitoring notices) is written to the outbox table in the
// caller's transaction. Where SMTP_URL is set, notify/delivery.ts sends the rows over SMTP and marks each; without it
// (development mode) they stay in the table, which tests and the CLI read through GET /api/dev/outbox (admins only).

export interface Mail {
  readonly organisationId: string | null;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly link: string | null;
}

export const queueMail = async (q: Queryable, mail: Mail, now: string) => {
  await q.query(
    "insert into outbox (organisation_id, to_email, subject, body, link, created_at, next_attempt_at) values ($1, $2, $3, $4, $5, $6, $6)",
    [mail.organisationId, mail.to, mail.subject, mail.body, mail.link, now],
  );
};
