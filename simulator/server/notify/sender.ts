import { type Mail, queueMail } from "../auth/mail.ts";
import type { Queryable } from "../db/database.ts";

// The sender port (issue 31 §3): reminders and clinician notices go out through it. Its one adapter writes to the
// outbox (auth/mail.ts) in the caller's transaction; from there notify/delivery.ts sends over SMTP where SMTP_URL is
// set, and in development mode the outbox is read at GET /api/dev/outbox. Sending over the network inside the
// caller's transaction would hold it for the SMTP server's time and send mail for a transaction later rolled back.

export interface Sender {
  /** Hands one message over in the caller's transaction (so a message and its once-only key commit together). */
  send(q: Queryable, mail: Mail, now: string): Promise<void>;
}

export const outboxSender: Sender = { send: queueMail };
