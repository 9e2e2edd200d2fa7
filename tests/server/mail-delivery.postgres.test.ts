import type { AddressInfo } from "node:net";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMail } from "../../simulator/server/auth/mail.ts";
import { type RunningServer, startServer } from "../../simulator/server/server.ts";
import { seedDemo } from "../../simulator/server/demo/seed.ts";
import { DEMO_PASSWORD, testStorage } from "./harness.ts";

// Two processes of a cluster on one PostgreSQL deliver the outbox together (simulator/server/notify/delivery.ts): each
// claims rows with `for update skip locked`, so every row reaches the SMTP server once, whichever process sends it.

const suite = () =>
  describe("mail delivery by two processes on one PostgreSQL", () => {
    const received: string[] = [];
    let smtp: SMTPServer;
    let servers: RunningServer[] = [];
    let drop: () => Promise<void> = async () => undefined;
    let url = "";

    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        onData(stream, _session, done) {
          let text = "";
          stream.on("data", (c: Buffer) => void (text += c.toString("utf8")));
          // A little time per message, so the two processes' passes overlap.
          stream.on("end", () => {
            received.push(/^Message-ID: (.*)$/im.exec(text)?.[1]?.trim() ?? "");
            setTimeout(() => done(), 5);
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
      const port = (smtp.server.address() as AddressInfo).port;
      const made = await testStorage("postgres");
      drop = made.drop;
      if (made.storage.kind === "postgres") url = made.storage.url;
      const options = {
        storage: made.storage,
        port: 0,
        webRoot: "/nonexistent-web-root",
        smtp: { host: "127.0.0.1", port, secure: false, user: undefined, password: undefined, from: "isopter@clinic.example" },
        mailTickMs: 0,
        missedSweepMs: 0,
      };
      servers.push(await startServer(options));
      await seedDemo(servers[0]!.db, { password: DEMO_PASSWORD, headsets: 1, results: "fixtures" });
      servers.push(await startServer(options));
    }, 180_000);
    afterAll(async () => {
      for (const s of servers) await s.close();
      servers = [];
      await drop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    it("60 messages sent by two processes at once: each reaches the server once", async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      const now = new Date().toISOString();
      for (let i = 0; i < 60; i++)
        await queueMail(
          a.db,
          { organisationId: null, to: `n${i}@clinic.example`, subject: `Message ${i}`, body: "A test.", link: null },
          now,
        );
      const [sentA, sentB] = await Promise.all([a.mail!.pass(), b.mail!.pass()]);
      expect(sentA + sentB).toBe(60);
      expect(received).toHaveLength(60);
      expect(new Set(received).size).toBe(60);
      const rows = await a.db.query<{ n: number }>("select count(*)::int as n from outbox where sent_at is not null and attempts = 1");
      expect(rows[0]!.n).toBe(60);
    });

    it("rows another process is claiming are skipped, not waited for, and sent by the next pass once free", async () => {
      const [a] = servers as [RunningServer];
      const before = received.length;
      const now = new Date().toISOString();
      for (let i = 0; i < 5; i++)
        await queueMail(
          a.db,
          { organisationId: null, to: `c${i}@clinic.example`, subject: `Claimed ${i}`, body: "A test.", link: null },
          now,
        );
      // Another process in the middle of its claim: two of the rows locked in its open transaction.
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      await other.query("begin");
      await other.query("select id from outbox where sent_at is null order by id limit 2 for update");
      const sent = await Promise.race([a.mail!.pass(), new Promise<string>((r) => setTimeout(() => r("waited"), 5_000))]);
      expect(sent).toBe(3);
      await other.query("rollback");
      await other.end();
      expect(await a.mail!.pass()).toBe(2);
      expect(received.length - before).toBe(5);
      expect(new Set(received).size).toBe(received.length);
    });
  });

if (process.env.TEST_DATABASE_URL) suite();
else
  describe("mail delivery by two processes on one PostgreSQL", () =>
    it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
