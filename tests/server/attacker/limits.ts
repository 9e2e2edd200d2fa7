import { expect, it } from "vitest";
import { hashPassword } from "../../../simulator/server/auth/password.ts";
import { setDemoPasswords } from "../../../simulator/server/demo/seed.ts";
import { call, DEMO_PASSWORD, login, raw } from "../harness.ts";
import { loginFrom, newAccount, postFrom, type ServerRef } from "./accounts.ts";

// Issue 15 §3 against the running server (the suite's server allows 5 failures per account and 12 per address in a
// 60 s window, and 3 reset requests per 15 min; `pass()` moves the server's clock past the windows).

export const LIMIT_SETTINGS = {
  loginFailuresAllowed: 5,
  loginAddressFailuresAllowed: 12,
  loginWindowMs: 60_000,
  resetRequestsAllowed: 3,
  resetWindowMs: 15 * 60_000,
};

export const limitCases = (server: ServerRef, pass: () => void) => {
  it("60 concurrent wrong passwords for one account: exactly 5 are checked, 55 get 429; then even the right password waits for the window", async () => {
    const base = server().url;
    const a = await newAccount(base);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => loginFrom(base, `127.0.1.${(i % 50) + 1}`, a.username, `Wrong-Pass-${i}`)),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
    expect(burst.find((r) => r.status === 429)!.responseType).toBe("rate_limited");
    // Kept in the database, where every server process on it sees it.
    expect(
      Number(
        (
          await server().db.query<{ attempts: number }>("select attempts from auth_limits where key = $1", [`login-account:${a.username}`])
        )[0]!.attempts,
      ),
    ).toBe(60);
    expect((await loginFrom(base, "127.0.2.1", a.username, a.password)).status).toBe(429);
    pass();
    expect((await loginFrom(base, "127.0.2.1", a.username, a.password)).status).toBe(200);
    pass();
  });

  it("failures of one account from many addresses add up; the seeds' client shows 'Login failed.' for 401 and 429 alike", async () => {
    const base = server().url;
    const a = await newAccount(base);
    for (let i = 1; i <= 5; i++) expect((await loginFrom(base, `127.0.3.${i}`, a.username, "Wrong-Pass-1")).status).toBe(401);
    expect((await loginFrom(base, "127.0.3.9", a.username, a.password)).status).toBe(429);
    pass();
  });

  it("a blocked address keeps out new names, not the clinic: staff who logged in from there before still get in", async () => {
    const base = server().url;
    const clinic = "127.0.4.1";
    expect((await loginFrom(base, clinic, "manager")).status).toBe(200);
    // An attacker behind the clinic's shared address sprays names and passwords.
    for (let i = 0; i < 12; i++) expect((await loginFrom(base, clinic, `guess${i}`, "Wrong-Pass-1")).status).toBe(401);
    expect((await loginFrom(base, clinic, "guess99", "Wrong-Pass-1")).status).toBe(429);
    expect((await loginFrom(base, clinic, "user")).status).toBe(429); // never logged in from here
    expect((await loginFrom(base, clinic, "manager")).status).toBe(200); // has, so the address block does not hold
    expect((await loginFrom(base, "127.0.4.2", "user")).status).toBe(200); // another address is not blocked
    pass();
  });

  it("password_change is limited per user: after 5 wrong old passwords even the right one gets 429 until the window passes", async () => {
    const base = server().url;
    const a = await newAccount(base);
    const token = await login(base, a.username, a.password);
    for (let i = 0; i < 5; i++)
      expect(
        (await call(base, "passwordChange", { body: { old_password: `Wrong-${i}`, new_password: "Next-Pass-1!" } }, token)).status,
      ).toBe(401);
    const limited = await call(base, "passwordChange", { body: { old_password: a.password, new_password: "Next-Pass-1!" } }, token);
    expect([limited.status, limited.responseType]).toEqual([429, "rate_limited"]);
    pass();
    expect((await call(base, "passwordChange", { body: { old_password: a.password, new_password: "Next-Pass-1!" } }, token)).status).toBe(
      200,
    );
  });

  it("the reset request answers alike for known and unknown addresses, mails only the known, and is limited per address", async () => {
    const base = server().url;
    const known = await postFrom(base, "127.0.5.1", "password_reset", { email: "user@demo.isopter.test" });
    const unknown = await postFrom(base, "127.0.5.1", "password_reset", { email: "nobody@demo.isopter.test" });
    expect(unknown).toEqual(known);
    expect(known.status).toBe(200);
    const admin = await login(base, "admin");
    expect(((await raw(base, "GET", "dev/outbox?to=nobody@demo.isopter.test", undefined, admin)).json.data as unknown[]).length).toBe(0);
    await postFrom(base, "127.0.5.1", "password_reset", { email: "someone@demo.isopter.test" });
    const limited = await postFrom(base, "127.0.5.1", "password_reset", { email: "else@demo.isopter.test" });
    expect([limited.status, limited.responseType]).toEqual([429, "rate_limited"]);
    // Per e-mail address too, whichever address asks.
    for (let i = 2; i <= 3; i++) await postFrom(base, `127.0.5.${i}`, "password_reset", { email: "manager@demo.isopter.test" });
    expect((await postFrom(base, "127.0.5.9", "password_reset", { email: "manager@demo.isopter.test" })).status).toBe(200);
    expect((await postFrom(base, "127.0.5.10", "password_reset", { email: "manager@demo.isopter.test" })).status).toBe(429);
    pass();
  });

  it("a login for an unknown user does the same password work as a wrong password (no enumeration by timing)", async () => {
    const base = server().url;
    const timed = async (username: string, i: number) => {
      const start = performance.now();
      const r = await loginFrom(base, `127.0.6.${i}`, username, "Wrong-Pass-1");
      expect(r.status).toBe(401);
      return performance.now() - start;
    };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const wrong: number[] = [];
    const unknown: number[] = [];
    const names = ["manager", "user", "admin", "appt.manager", "appt.user", "appt.admin"];
    for (const [i, name] of names.entries()) {
      wrong.push(await timed(name, i + 1));
      unknown.push(await timed(`nobody${i}`, i + 11));
    }
    // Without the decoy check an unknown name answered in about a fiftieth of the time: a margin, not a speed claim.
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
    pass();
  });

  it("every password hash has its own salt; accounts that shared one are re-hashed (at start with DEMO_PASSWORD, else at their next login)", async () => {
    const base = server().url;
    const salts = async () =>
      (
        await server().db.query<{ username: string; password_hash: string }>(
          "select username, password_hash from users where password_hash is not null",
        )
      ).map((r) => [r.username, r.password_hash.split("$")[4]] as const);
    const before = await salts();
    expect(new Set(before.map(([, s]) => s)).size).toBe(before.length);
    // A data directory from before: every demo account one hash, one salt.
    const shared = await hashPassword(DEMO_PASSWORD);
    const demo = ["manager", "user", "admin", "appt.manager", "appt.user", "appt.admin"];
    await server().db.query("update users set password_hash = $1 where username = any($2::text[])", [shared, demo]);
    await login(base, "user");
    const afterLogin = new Map(await salts());
    expect(afterLogin.get("user")).not.toBe(shared.split("$")[4]);
    expect(afterLogin.get("manager")).toBe(shared.split("$")[4]);
    await setDemoPasswords(server().db, DEMO_PASSWORD); // what `npm start` does with DEMO_PASSWORD
    const restarted = await salts();
    expect(new Set(restarted.map(([, s]) => s)).size).toBe(restarted.length);
    for (const name of demo) expect((await call(base, "login", { body: { username: name, password: DEMO_PASSWORD } })).status).toBe(200);
  });
};
