import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../../simulator/server/config.ts";
import { backoffMs, MAX_AGE_MS } from "../../simulator/server/notify/delivery.ts";
import { describeSmtpError, fromDomain, isPermanent } from "../../simulator/server/notify/smtp.ts";

// The SMTP settings read at start (simulator/server/config.ts, notify/smtp.ts): a bad setting stops the start with one
// line naming it, and never prints the password; the retry rules of notify/delivery.ts.

const config = (env: Record<string, string>) => readConfig(env as NodeJS.ProcessEnv);
const refusal = (env: Record<string, string>) => {
  try {
    config(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error("accepted");
};
const FROM = { SMTP_FROM: "Isopter <isopter@clinic.example>" };

describe("SMTP settings", () => {
  it("none: development mode, the outbox only", () => {
    expect(config({}).smtp).toBeUndefined();
  });

  it("smtps:// with the login in the URL (escaped characters read), port 465 by default", () => {
    expect(config({ SMTP_URL: "smtps://mailer:p%40ss@mail.clinic.example", ...FROM }).smtp).toEqual({
      host: "mail.clinic.example",
      port: 465,
      secure: true,
      user: "mailer",
      password: "p@ss",
      from: "Isopter <isopter@clinic.example>",
    });
  });

  it("smtp:// with the login in SMTP_USER and SMTP_PASSWORD, port 587 by default", () => {
    const s = config({
      SMTP_URL: "smtp://mail.clinic.example",
      SMTP_USER: "mailer",
      SMTP_PASSWORD: "secret",
      SMTP_FROM: "a@b.example",
    }).smtp;
    expect(s).toMatchObject({ port: 587, secure: false, user: "mailer", password: "secret" });
  });

  it("each bad setting is named in one line, and a password is never shown", () => {
    const wrongScheme = refusal({ SMTP_URL: "http://mailer:hunter2@mail.example", ...FROM });
    expect(wrongScheme).toMatch(/^SMTP_URL must be an SMTP server/);
    expect(wrongScheme).not.toContain("hunter2");
    expect(refusal({ SMTP_URL: "not a url", ...FROM })).toMatch(/^SMTP_URL /);
    expect(refusal({ SMTP_URL: "smtp://mail.example" })).toMatch(/^SMTP_FROM must be the sender's address/);
    expect(refusal({ SMTP_URL: "smtp://mail.example", SMTP_FROM: "Isopter" })).toMatch(/^SMTP_FROM /);
    expect(refusal({ SMTP_FROM: "a@b.example" })).toMatch(/^SMTP_FROM needs SMTP_URL/);
    expect(refusal({ SMTP_URL: "smtp://u:p@mail.example", SMTP_PASSWORD: "q", ...FROM })).toMatch(/^SMTP_PASSWORD is set/);
    expect(refusal({ SMTP_URL: "smtp://mail.example", SMTP_PASSWORD: "q", ...FROM })).toMatch(/^SMTP_PASSWORD needs a user/);
    for (const m of [wrongScheme]) expect(m.split("\n")).toHaveLength(1);
  });

  it("the Message-ID's domain is the sender's", () => {
    expect(fromDomain("Isopter <isopter@clinic.example>")).toBe("clinic.example");
    expect(fromDomain("isopter@clinic.example")).toBe("clinic.example");
    expect(fromDomain("Isopter")).toBeUndefined();
  });

  it("5xx refusals are for good, but a failed login (a setting to fix) and 4xx or connection errors are tried again", () => {
    expect(isPermanent({ responseCode: 550, code: "EENVELOPE" })).toBe(true);
    expect(isPermanent({ responseCode: 535, code: "EAUTH" })).toBe(false);
    expect(isPermanent({ responseCode: 451, code: "EMESSAGE" })).toBe(false);
    expect(isPermanent({ code: "ECONNECTION" })).toBe(false);
    expect(describeSmtpError({ responseCode: 550, response: "550 No such\r\n mailbox" })).toBe("550: 550 No such mailbox");
  });

  it("back-off: 1 min doubling to at most 1 h; a mail is tried for at most two days", () => {
    expect([1, 2, 3, 6, 7, 30].map(backoffMs)).toEqual([60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000]);
    expect(MAX_AGE_MS).toBe(2 * 24 * 3_600_000);
  });
});
