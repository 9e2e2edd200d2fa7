import { type Mail, queueMail } from "../auth/mail.ts";
import type { Queryable } from "../db/database.ts";

// The sender port (issue 31 §3): reminders and clinician notices go out through it. One adapter is built: the outbox
// (auth/mail.ts), the development mode's, read at GET /api/dev/outbox. SMTP is not built: the project has no SMTP
// client nor nodemailer among its dependencies; an SMTP adapter implements this interface where one is configured.

export interface Sender {
  /** Hands one message over in the caller's transaction (so a message and its once-only key commit together). */
  send(q: Queryable, mail: Mail, now: string): Promise<void>;
}

export const outboxSender: Sender = { send: queueMail };
