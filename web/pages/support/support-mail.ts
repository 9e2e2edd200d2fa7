// The support widget's e-mail (issue 21 §7: "a message form that composes a support e-mail"): a mailto: link the
// user's own mail program opens, so the message leaves from their address and support can answer it. Nothing is sent
// by the app; the technical details help support without naming a patient.

export interface SupportMail {
  readonly to: string;
  readonly subject: string;
  readonly message: string;
  /** Version, page and language lines appended under the message; null leaves them out. */
  readonly details: { readonly version: string; readonly page: string; readonly role: string; readonly language: string } | null;
}

/** The mailto: address of the composed e-mail (RFC 6068: subject and body percent-encoded, line breaks as CRLF). */
export function supportMailto(mail: SupportMail): string {
  const lines = [mail.message.trim()];
  if (mail.details) {
    const d = mail.details;
    lines.push("", "--", `Isopter ${d.version}`, `Page: ${d.page}`, `Role: ${d.role}`, `Language: ${d.language}`);
  }
  const body = lines.join("\r\n");
  return `mailto:${mail.to}?subject=${encodeURIComponent(mail.subject.trim())}&body=${encodeURIComponent(body)}`;
}

/** The page as support may see it: the path only (no query, whose ids could name a patient's record). */
export const pageForSupport = (pathname: string): string =>
  pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{id}");
