import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Eye } from "../../core/model/enums.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { queueMail } from "../../simulator/server/auth/mail.ts";
import { backoffMs } from "../../simulator/server/notify/delivery.ts";
import { fakeHeadset, login, ok, raw, startTestServer, type TestServer } from "./harness.ts";
import { dayFromNow, homeResult, programmeBody } from "./home-fixtures.ts";

// SMTP delivery of the outbox (issue 31 §3: "They go through a sender port: the outbox in development mode, SMTP where
// configured"), against a real SMTP server (smtp-server, the protocol's implementation by Nodemailer's authors) on a
// free port of 127.0.0.1, with a login: a flagged result's notice reaches the clinician once; a missed session's
// reminder reaches the programme's reminder address; the SMTP server down, then up: delivered after the retry, once;
// a permanent refusal (5xx) recorded and not tried again.

interface Received {
  readonly to: string[];
  readonly subject: string;
  readonly messageId: string;
}

const USER = "isopter";
const PASSWORD = "smtp-secret";

/** An SMTP server on `port` (0: a free one) that keeps every message it accepts; it refuses recipients at refused.example. */
const mailServer = async (mailbox: Received[], port = 0) => {
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    onAuth(auth, _session, done) {
      if (auth.username === USER && auth.password === PASSWORD) done(null, { user: USER });
      else done(Object.assign(new Error("Invalid login"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, done) {
      if (address.address.endsWith("@refused.example")) done(Object.assign(new Error("No such mailbox here"), { responseCode: 550 }));
      else done();
    },
    onData(stream, session, done) {
      let text = "";
      stream.on("data", (c: Buffer) => void (text += c.toString("utf8")));
      stream.on("end", () => {
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(text)?.[1]?.trim() ?? "";
        mailbox.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: header("Subject"), messageId: header("Message-ID") });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return { smtp, port: (smtp.server.address() as AddressInfo).port };
};
const closeMailServer = (smtp: SMTPServer) => new Promise<void>((resolve) => smtp.close(() => resolve()));

describe("mail delivered over SMTP from the outbox", () => {
  const mailbox: Received[] = [];
  let smtp: SMTPServer;
  let port: number;
  let server: TestServer;
  let manager: string;
  let offsetMs = 0;
  const to = (address: string) => mailbox.filter((m) => m.to.includes(address));
  const outboxRow = async (id: string) =>
    (
      await server.db.query<{ sent_at: string | null; given_up_at: string | null; attempts: number; last_error: string | null }>(
        "select sent_at, given_up_at, attempts, last_error from outbox where id = $1",
        [id],
      )
    )[0]!;
  const queued = async (address: string, subject: string) => {
    const org = (await server.db.query<{ id: string }>("select id from organisations order by id limit 1"))[0]!.id;
    await queueMail(
      server.db,
      { organisationId: org, to: address, subject, body: "A test.", link: null },
      new Date(server.ctx.now()).toISOString(),
    );
    return String((await server.db.query<{ id: string }>("select max(id) as id from outbox"))[0]!.id);
  };
  const patient = async (name: string) =>
    ok(
      server.url,
      "patient.register",
      { body: { name, uniqueId: `M-${Math.random().toString(36).slice(2, 10)}`, gender: 1, lang: "en", birthdate: "1958-03-03" } },
      manager,
    );

  beforeAll(async () => {
    ({ smtp, port } = await mailServer(mailbox));
    server = await startTestServer("pglite", {
      smtp: { host: "127.0.0.1", port, secure: false, user: USER, password: PASSWORD, from: "Isopter <isopter@clinic.example>" },
      mailTickMs: 0,
      missedSweepMs: 0,
      now: () => Date.now() + offsetMs,
      settings: { commandTimeoutMs: 400, deviceSilenceMs: 60_000 },
    });
    manager = await login(server.url, "manager");
  }, 180_000);
  afterAll(async () => {
    await server?.drop();
    if (smtp) await closeMailServer(smtp);
  });

  it("a flagged result's notice reaches the clinician's mailbox once, its Message-ID the outbox row's", async () => {
    const p = await patient("Mail Flagged");
    const sn = "VR-0002";
    const made = await ok(server.url, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
    const h = await fakeHeadset(server, sn);
    await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
    const tally = (errors: number) => ({ errors, presentations: 10 });
    const unreliable: MeasurementResult = {
      ...homeResult(p.id, `${dayFromNow(-1)}T10:00:00.000Z`, Eye.Right),
      gazeTracking: null,
      catchTrials: { falseNegative: tally(0), falsePositive: tally(5), blindSpot: tally(0) },
    };
    h.send({ type: "standaloneResult", standaloneId: made.standaloneId, resultId: "m-1", result: unreliable });
    await h.next((m) => m.type === "resultAccepted" && m.resultId === "m-1");
    const managerEmail = (await server.db.query<{ email: string }>("select email from users where username = 'manager'"))[0]!.email;
    // Triage runs after the result's commit: wait for its notice in the outbox.
    let row: { id: string } | undefined;
    for (let i = 0; i < 100 && !row; i++) {
      row = (
        await server.db.query<{ id: string }>("select id::text as id from outbox where to_email = $1 and subject like 'A home result%'", [
          managerEmail,
        ])
      )[0];
      if (!row) await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toBeDefined();
    expect(await server.mail!.pass()).toBeGreaterThanOrEqual(1);
    await server.mail!.pass();
    const got = to(managerEmail).filter((m) => m.subject.startsWith("A home result to review"));
    // Flagged unreliable (5 false positives in 10), and with sessions missed before it (the programme began 3 weeks ago).
    expect(got).toEqual([
      {
        to: [managerEmail],
        subject: expect.stringMatching(/^A home result to review: unreliable/),
        messageId: `<outbox.${row!.id}@clinic.example>`,
      },
    ]);
    expect((await outboxRow(row!.id)).sent_at).not.toBeNull();
    // Readiness shows the queue: nothing waiting.
    const ready = await raw(server.url, "GET", "ready");
    expect(ready.json.data).toMatchObject({ mail: { delivery: "smtp", queued: 0, oldestQueuedSeconds: null } });
    await ok(server.url, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
    await h.close();
  });

  it("a password reset goes out the same way", async () => {
    const email = (await server.db.query<{ email: string }>("select email from users where username = 'manager'"))[0]!.email;
    await ok(server.url, "passwordReset.request", { body: { email } });
    await server.mail!.pass();
    expect(to(email).filter((m) => m.subject === "Reset your Isopter password")).toHaveLength(1);
  });

  it("a missed session's reminder reaches the programme's reminder address, once however often the queue is read", async () => {
    const p = await patient("Mail Reminded");
    const body = programmeBody(p.id, "VR-0001", { eyes: [Eye.Right], reminderEmail: "reminded@home.example" });
    const made = await ok(server.url, "home.programmeCreate", { body }, manager);
    expect(made.reminderEmail).toBe("reminded@home.example");
    for (let i = 0; i < 2; i++) await ok(server.url, "review.counts", {}, manager);
    await server.mail!.pass();
    await server.mail!.pass();
    // Three weeks back, weekly: sessions 0, 1 and 2 have closed without a result.
    expect(to("reminded@home.example").map((m) => m.subject)).toEqual(Array(3).fill("A home test was missed"));
    await ok(server.url, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
  });

  it("a reminder address that is not one is refused, naming the field", async () => {
    const p = await patient("Mail Bad Address");
    const answer = await raw(
      server.url,
      "POST",
      "home/programme/create",
      { ...programmeBody(p.id, "VR-0003"), reminderEmail: "not an address" },
      manager,
    );
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain("must be an e-mail address such as name@example.org");
  });

  it("the SMTP server down, then up: the mail waits, is delivered after the retry, once", async () => {
    await closeMailServer(smtp);
    const id = await queued("later@clinic.example", "Sent after the outage");
    expect(await server.mail!.pass()).toBe(0);
    const failed = await outboxRow(id);
    expect(failed).toMatchObject({ sent_at: null, given_up_at: null, attempts: 1 });
    expect(failed.last_error).toMatch(/ECONNECTION|ECONNREFUSED/);
    ({ smtp } = await mailServer(mailbox, port));
    // Not due before its back-off (1 min after the first failure) has passed.
    expect(await server.mail!.pass()).toBe(0);
    offsetMs += backoffMs(1) + 1_000;
    expect(await server.mail!.pass()).toBe(1);
    expect(await server.mail!.pass()).toBe(0);
    expect(to("later@clinic.example")).toHaveLength(1);
    expect(await outboxRow(id)).toMatchObject({ attempts: 2, last_error: null });
    expect((await outboxRow(id)).sent_at).not.toBeNull();
  });

  it("a permanent refusal (5xx) is recorded on the row and not tried again", async () => {
    const id = await queued("nobody@refused.example", "Refused for good");
    await server.mail!.pass();
    const refused = await outboxRow(id);
    expect(refused).toMatchObject({ sent_at: null, attempts: 1 });
    expect(refused.given_up_at).not.toBeNull();
    expect(refused.last_error).toMatch(/^550/);
    offsetMs += 24 * 60 * 60_000;
    await server.mail!.pass();
    expect((await outboxRow(id)).attempts).toBe(1);
    expect(to("nobody@refused.example")).toHaveLength(0);
    const ready = await raw(server.url, "GET", "ready");
    expect(ready.json.data).toMatchObject({ mail: { delivery: "smtp", queued: 0 } });
  });
});
