import { isIP } from "node:net";
import nodemailer from "nodemailer";

// The SMTP adapter (issue 31 §3: "the outbox in development mode, SMTP where configured"): SMTP_URL names the server,
// smtps:// for TLS from the first byte (port 465 by default), smtp:// for STARTTLS (587 by default). The user and
// password come in the URL or in SMTP_USER and SMTP_PASSWORD; SMTP_FROM is the sender. Our choice: smtp:// to any host
// but a loopback address must upgrade with STARTTLS (requireTLS), so credentials and patients' mail never cross a
// network in clear; certificates are verified (nodemailer's default). Timeouts stay well under delivery.ts's claim.

export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  /** smtps: TLS from the start. */
  readonly secure: boolean;
  readonly user: string | undefined;
  readonly password: string | undefined;
  /** The From header: an address, or a name and an address in angle brackets. */
  readonly from: string;
}

export class SmtpSettingError extends Error {}

const address = /^[^\s@<>]+@([^\s@<>]+\.[^\s@<>]+)$/u;

/** The domain of SMTP_FROM's address (the Message-ID's right side), or undefined when it is not one. */
export const fromDomain = (from: string): string | undefined => {
  const inBrackets = /^[^<>]*<([^<>]+)>$/u.exec(from.trim());
  return address.exec(inBrackets ? inBrackets[1]! : from.trim())?.[1];
};

/** SMTP_URL with its password hidden, for messages. */
const shown = (u: URL) => {
  const copy = new URL(u.href);
  if (copy.password) copy.password = "***";
  return copy.href;
};

/** The SMTP settings from the environment; undefined when SMTP_URL is unset (development mode: the outbox only). */
export const readSmtpSettings = (env: NodeJS.ProcessEnv): SmtpSettings | undefined => {
  const raw = env.SMTP_URL?.trim();
  const from = env.SMTP_FROM?.trim();
  const user = env.SMTP_USER?.trim() || undefined;
  const password = env.SMTP_PASSWORD || undefined;
  if (!raw) {
    const stray = [from && "SMTP_FROM", user && "SMTP_USER", password && "SMTP_PASSWORD"].find(Boolean);
    if (stray) throw new SmtpSettingError(`${stray} needs SMTP_URL (the SMTP server, such as smtps://mail.example:465)`);
    return undefined;
  }
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {}
  if (!u || !["smtp:", "smtps:"].includes(u.protocol) || u.hostname === "" || (u.pathname !== "" && u.pathname !== "/") || u.search)
    throw new SmtpSettingError(
      `SMTP_URL must be an SMTP server such as smtps://user:password@mail.example:465 or smtp://mail.example:587, got '${u ? shown(u) : "an address that does not parse"}'`,
    );
  if (u.username && user) throw new SmtpSettingError("SMTP_USER is set and SMTP_URL names a user too: give it in one place");
  if (u.password && password) throw new SmtpSettingError("SMTP_PASSWORD is set and SMTP_URL holds a password too: give it in one place");
  const login = u.username ? decodeURIComponent(u.username) : user;
  const secret = u.password ? decodeURIComponent(u.password) : password;
  if (secret && !login) throw new SmtpSettingError("SMTP_PASSWORD needs a user (SMTP_USER, or in SMTP_URL)");
  if (!from || fromDomain(from) === undefined)
    throw new SmtpSettingError(
      `SMTP_FROM must be the sender's address, such as isopter@clinic.example or "Isopter <isopter@clinic.example>", got '${from ?? ""}'`,
    );
  const secure = u.protocol === "smtps:";
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    user: login,
    password: secret,
    from,
  };
};

const loopback = (host: string) =>
  host === "localhost" || (isIP(host) === 4 && host.startsWith("127.")) || (isIP(host) === 6 && host === "::1");

/** One message of the outbox as it goes out. */
export interface OutgoingMail {
  /** The outbox row's id: the Message-ID is made of it, so a receiver can drop a repeat. */
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly createdAt: string;
}

/** Where delivery.ts hands each message. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A refusal for good: the server answered 5xx (but for a failed login, a setting to fix, tried again). */
export const isPermanent = (e: unknown): boolean => {
  const { responseCode, code } = (e ?? {}) as { responseCode?: unknown; code?: unknown };
  return typeof responseCode === "number" && responseCode >= 500 && responseCode < 600 && code !== "EAUTH";
};

/** The SMTP server's answer, or the connection's error, in one line. */
export const describeSmtpError = (e: unknown): string => {
  const { responseCode, code, response, message } = (e ?? {}) as Record<string, unknown>;
  const what = typeof response === "string" && response ? response : typeof message === "string" ? message : String(e);
  return `${responseCode ?? code ?? "error"}: ${what}`.replace(/\s+/g, " ").slice(0, 500);
};

export const smtpTransport = (s: SmtpSettings): MailTransport => {
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    requireTLS: !s.secure && !loopback(s.host),
    ...(s.user ? { auth: { user: s.user, pass: s.password ?? "" } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  const domain = fromDomain(s.from)!;
  return {
    async send(m) {
      await transport.sendMail({
        from: s.from,
        to: m.to,
        subject: m.subject,
        text: m.body,
        messageId: `<outbox.${m.id}@${domain}>`,
        date: new Date(m.createdAt),
        // RFC 3834: an automatic message, so auto-responders do not answer it.
        headers: { "Auto-Submitted": "auto-generated" },
      });
    },
    close() {
      transport.close();
    },
  };
};
