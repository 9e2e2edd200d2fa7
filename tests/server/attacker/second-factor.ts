import { expect, it } from "vitest";
import type { AuditFilter } from "../../../core/model/audit.ts";
import { base32Decode, hotp, totpStep } from "../../../simulator/server/auth/totp.ts";
import { call, login, ok, raw } from "../harness.ts";
import { newAccount, type ServerRef } from "./accounts.ts";

// Issue 33 item 2 against the running server: "A TOTP code is refused after its window and after 5 wrong tries, with
// the same limits as passwords"; TOTP brute force; replays; challenges that are not sessions; what a database reader
// finds. `pass()` moves the server's clock past the login window (and past a challenge's five minutes).

const none: AuditFilter = { from: null, to: null, userId: null, patientId: null, action: null };

/** An account of the demo clinic with a confirmed TOTP factor; its secret, as the authenticator app holds it. */
const enrolled = async (base: string, now: () => number) => {
  const a = await newAccount(base);
  const token = await login(base, a.username, a.password);
  const { secret } = await ok(base, "secondFactor.enrol", {}, token);
  const key = base32Decode(secret)!;
  const { recoveryCodes } = await ok(base, "secondFactor.confirm", { body: { code: hotp(key, totpStep(now())) } }, token);
  const challenge = async () => {
    const answer = await ok(base, "login", { body: { username: a.username, password: a.password } });
    expect(answer.secondFactor).toEqual({ step: "verify" });
    return answer.accessToken;
  };
  /** The code `ahead` steps from the server's now. */
  const code = (ahead = 0) => hotp(key, totpStep(now()) + ahead);
  /** Six digits that are none of the window's codes. */
  const wrong = (i: number) => {
    const good = new Set([-1, 0, 1].map((d) => code(d)));
    let n = (i * 7919) % 1_000_000;
    while (good.has(String(n).padStart(6, "0"))) n = (n + 1) % 1_000_000;
    return String(n).padStart(6, "0");
  };
  return { ...a, secret, recoveryCodes, challenge, code, wrong };
};

export const secondFactorCases = (server: ServerRef, pass: () => void) => {
  const now = () => server().ctx.now();
  const signIn = (challenge: string, code: string) => call(server().url, "secondFactor.signIn", { body: { challenge, code } });

  it("TOTP brute force: 40 concurrent wrong codes, exactly 5 are checked and 35 get 429; a new challenge does not reset the count; the right code waits for the window", async () => {
    const a = await enrolled(server().url, now);
    const challenge = await a.challenge();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(challenge, a.wrong(i + 1))));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    expect(burst.find((r) => r.status === 429)!.responseType).toBe("rate_limited");
    expect((await signIn(await a.challenge(), a.code())).status).toBe(429);
    expect((await signIn(await a.challenge(), a.recoveryCodes[0]!)).status).toBe(429);
    pass();
    expect((await signIn(await a.challenge(), a.code())).status).toBe(200);
  });

  it("a code is refused two steps from now and when replayed; a recovery code works once", async () => {
    const a = await enrolled(server().url, now);
    pass(); // the confirming code's step is long past
    for (const ahead of [-2, 2]) expect((await signIn(await a.challenge(), a.code(ahead))).responseType).toBe("invalid_credentials");
    const code = a.code();
    expect((await signIn(await a.challenge(), code)).status).toBe(200);
    expect((await signIn(await a.challenge(), code)).responseType).toBe("invalid_credentials"); // the same step again
    expect((await signIn(await a.challenge(), a.code(-1))).responseType).toBe("invalid_credentials"); // an earlier step
    pass();
    const recovery = a.recoveryCodes[5]!;
    expect((await signIn(await a.challenge(), recovery)).status).toBe(200);
    expect((await signIn(await a.challenge(), recovery)).responseType).toBe("invalid_credentials");
  });

  it("a challenge is not a session and a session is not a challenge; an altered or expired challenge is refused", async () => {
    const base = server().url;
    const a = await enrolled(base, now);
    const challenge = await a.challenge();
    const asBearer = await raw(base, "GET", "patient/all", undefined, challenge);
    expect([asBearer.status, asBearer.json.responseType]).toEqual([401, "token_verification_error"]);
    expect((await call(base, "secondFactor.status", {}, challenge)).status).toBe(401);
    const other = await newAccount(base);
    const session = await login(base, other.username, other.password);
    expect((await signIn(session, a.code())).responseType).toBe("token_verification_error");
    const [h, p, s] = challenge.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as { sub: string };
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: other.id })).toString("base64url")}.${s}`;
    expect((await signIn(forged, a.code())).responseType).toBe("token_verification_error");
    pass(); // past the challenge's five minutes
    expect((await signIn(challenge, a.code())).responseType).toBe("token_expired");
  });

  it("a password changed while a sign-in waits for its code ends that sign-in", async () => {
    const base = server().url;
    const a = await enrolled(base, now);
    pass();
    const waiting = await a.challenge();
    const session = (await ok(base, "secondFactor.signIn", { body: { challenge: await a.challenge(), code: a.code() } })).accessToken;
    await ok(base, "passwordChange", { body: { old_password: a.password, new_password: "Another-Pass-2" } }, session);
    expect((await signIn(waiting, a.code(1))).responseType).toBe("token_verification_error");
  });

  it("a database reader finds neither the TOTP secret nor a recovery code", async () => {
    const a = await enrolled(server().url, now);
    const rows = await server().db.query<{ secret_sealed: string }>("select secret_sealed from second_factors where user_id = $1", [a.id]);
    const raw32 = base32Decode(a.secret)!;
    expect(rows[0]!.secret_sealed).not.toContain(a.secret);
    expect(rows[0]!.secret_sealed).not.toContain(raw32.toString("base64url"));
    expect(rows[0]!.secret_sealed).not.toContain(raw32.toString("hex"));
    const stored = (await server().db.query<{ code_hash: string }>("select code_hash from recovery_codes where user_id = $1", [a.id])).map(
      (r) => r.code_hash,
    );
    expect(stored).toHaveLength(10);
    for (const code of a.recoveryCodes) for (const h of stored) expect(h).not.toContain(code.replace("-", ""));
  });

  it("enrolment, refused codes and disabling are in the audit trail under the account's name", async () => {
    const base = server().url;
    const a = await enrolled(server().url, now);
    pass();
    expect((await signIn(await a.challenge(), a.wrong(3))).status).toBe(401);
    const token = (await ok(base, "secondFactor.signIn", { body: { challenge: await a.challenge(), code: a.code() } })).accessToken;
    await ok(base, "secondFactor.disable", { body: { password: a.password } }, token);
    const manager = await login(base, "manager");
    const trail = async (action: string) =>
      (await ok(base, "audit.search", { body: { filter: { ...none, action, userId: a.id }, page: 0, quantity: 20 } }, manager)).entries;
    expect((await trail("secondFactor.confirm"))[0]).toMatchObject({ actorName: a.username, outcome: "success" });
    expect((await trail("secondFactor.signIn")).map((e) => e.outcome)).toEqual(expect.arrayContaining(["invalid_credentials", "success"]));
    expect((await trail("secondFactor.disable"))[0]).toMatchObject({ actorId: a.id, outcome: "success" });
  });
};
