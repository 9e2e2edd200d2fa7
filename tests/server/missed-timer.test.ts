import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Eye } from "../../core/model/enums.ts";
import { login, ok, startTestServer, type TestServer } from "./harness.ts";
import { dayFromNow, programmeBody } from "./home-fixtures.ts";

// Missed sessions swept on a timer (simulator/server/review/missed-timer.ts; issue 31 §3: "Reminders go out for missed
// sessions"): with nobody reading the review queue, the server finds a session whose window has closed once its clock
// has passed it, stores the item and queues the reminder to the programme's reminder address, each once however many
// sweeps follow, the notice audited as the server's own.

const DAY_MS = 86_400_000;
const until = async <T>(read: () => Promise<T | undefined>, ms = 10_000): Promise<T | undefined> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("missed sessions swept on the server's timer", () => {
  let server: TestServer;
  let offsetMs = 0;

  beforeAll(async () => {
    server = await startTestServer("pglite", { missedSweepMs: 100, now: () => Date.now() + offsetMs });
  }, 180_000);
  afterAll(async () => server?.drop());

  it("a week later by the server's clock, the missed session's item and reminder are there, once, with no one looking", async () => {
    const manager = await login(server.url, "manager");
    const p = await ok(
      server.url,
      "patient.register",
      { body: { name: "Timer Reminded", uniqueId: "T-0001", gender: 1, lang: "en", birthdate: "1958-03-03" } },
      manager,
    );
    const body = programmeBody(p.id, "VR-0001", { eyes: [Eye.Right], start: dayFromNow(0), reminderEmail: "timer@home.example" });
    const made = await ok(server.url, "home.programmeCreate", { body }, manager);
    const items = () =>
      server.db.query<{ session_index: number }>("select session_index from review_items where programme_id = $1 and kind = 'missed'", [
        made.id,
      ]);
    const reminders = () => server.db.query<{ subject: string }>("select subject from outbox where to_email = 'timer@home.example'", []);
    // Session 0's window (today to 6 days on) is open: several sweeps find nothing.
    await new Promise((r) => setTimeout(r, 400));
    expect(await items()).toEqual([]);
    // Eight days on by the server's clock: session 0 has closed untested.
    offsetMs = 8 * DAY_MS;
    await until(async () => ((await items()).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 400)); // more sweeps: still one of each
    expect(await items()).toEqual([{ session_index: 0 }]);
    expect(await reminders()).toEqual([{ subject: "A home test was missed" }]);
    await server.ctx.audit.flush();
    const trail = await server.db.query(
      "select actor_kind, actor_id, actor_name, outcome from audit_events where action = 'notice.missed' and patient_id = $1",
      [p.id],
    );
    expect(trail).toEqual([{ actor_kind: "anonymous", actor_id: null, actor_name: "Isopter server", outcome: "success" }]);
  });
});
