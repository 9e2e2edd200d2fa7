import { expect, it } from "vitest";
import type { Endpoint, RequestOf, ResponseOf } from "../../core/model/contract/index.ts";
import { base32Decode, hotp, totpStep } from "../../simulator/server/auth/totp.ts";
import { login, ok, raw, type Answer } from "./harness.ts";

// The second factor's calls (issue 33 item 2) against the running server, on PGlite and PostgreSQL through
// contract-suite.ts: enrolment from the settings and at sign-in, sign-in with a code and with a recovery code, the
// organisation's "required" switch, disabling. Codes are computed here from the secret the enrolment shows, as an
// authenticator app would (RFC 6238). The organisation is left as found: not requiring a second factor.

export interface SecondFactorSuiteEnv {
  c<E extends Endpoint>(name: E, input: RequestOf<E>, token?: string): Promise<Answer<ResponseOf<E>>>;
  o<E extends Endpoint>(name: E, input: RequestOf<E>, token?: string): Promise<ResponseOf<E>>;
  base(): string;
  /** The server's clock. */
  now(): number;
}

/** The code of the step `ahead` steps from now, for a base32 secret. */
export const codeFor = (secret: string, nowMs: number, ahead = 0) => hotp(base32Decode(secret)!, totpStep(nowMs) + ahead);

export const secondFactorCases = (env: SecondFactorSuiteEnv) => {
  const { c, o } = env;
  const none = undefined as never;
  /** A new active user of the demo clinic: invited by the suite's manager, signed up through the e-mailed link. */
  const newUser = async () => {
    const email = `second.${Math.random().toString(36).slice(2, 10)}@demo.isopter.test`;
    await o("user.invite", { body: { emails: [email], role: "user" } });
    const admin = await login(env.base(), "admin");
    const mail = ((await raw(env.base(), "GET", `dev/outbox?to=${email}`, undefined, admin)).json.data as Array<{ link: string }>)[0]!;
    const [, invitationId, invitationToken] = /\/signup\/([^/]+)\/(.+)$/.exec(mail.link)!;
    const password = "Second-Factor-Pass-1";
    await ok(env.base(), "user.signup", {
      token: invitationToken!,
      body: { invitationId: invitationId!, password, invitationToken: invitationToken! },
    });
    return { username: email, password };
  };

  it("second factor from the settings: enrol (secret and otpauth URI), confirm with a first code (ten recovery codes, once), then sign in with a code and with a recovery code", async () => {
    const u = await newUser();
    const plain = await o("login", { body: { username: u.username, password: u.password } }, none);
    expect(plain.secondFactor).toBeUndefined();
    const token = plain.accessToken;
    expect(await o("secondFactor.status", {}, token)).toEqual({ enrolled: false, required: false, recoveryCodesLeft: 0 });
    const enrolment = await o("secondFactor.enrol", {}, token);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(enrolment.uri).searchParams.get("secret")).toBe(enrolment.secret);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/Isopter:/);
    const wrong = await c(
      "secondFactor.confirm",
      { body: { code: "000000" === codeFor(enrolment.secret, env.now()) ? "111111" : "000000" } },
      token,
    );
    expect([wrong.status, wrong.responseType]).toEqual([401, "invalid_credentials"]);
    const { recoveryCodes } = await o("secondFactor.confirm", { body: { code: codeFor(enrolment.secret, env.now()) } }, token);
    expect(recoveryCodes).toHaveLength(10);
    expect(await o("secondFactor.status", {}, token)).toEqual({ enrolled: true, required: false, recoveryCodesLeft: 10 });
    expect((await c("secondFactor.enrol", {}, token)).responseType).toBe("conflict");

    // The password alone is no longer a session: login answers the second step's challenge.
    const first = await o("login", { body: { username: u.username, password: u.password } }, none);
    expect(first.secondFactor).toEqual({ step: "verify" });
    expect((await c("checkToken", {}, first.accessToken)).status).toBe(401);
    // The confirming code's step is used: the next step's code (within the window) signs in.
    const signedIn = await c(
      "secondFactor.signIn",
      { body: { challenge: first.accessToken, code: codeFor(enrolment.secret, env.now(), 1) } },
      none,
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.accessToken).toBe(signedIn.data.accessToken);
    expect((await o("checkToken", {}, signedIn.data.accessToken)).username).toBe(u.username);

    const second = await o("login", { body: { username: u.username, password: u.password } }, none);
    const byRecovery = await o(
      "secondFactor.signIn",
      { body: { challenge: second.accessToken, code: recoveryCodes[3]!.toUpperCase() } },
      none,
    );
    expect(await o("secondFactor.status", {}, byRecovery.accessToken)).toMatchObject({ enrolled: true, recoveryCodesLeft: 9 });
    const again = await c("secondFactor.signIn", { body: { challenge: second.accessToken, code: recoveryCodes[3]! } }, none);
    expect(again.responseType).toBe("invalid_credentials");

    // Turning it off asks for the password.
    const badPassword = await c("secondFactor.disable", { body: { password: "Not-The-Pass-1" } }, byRecovery.accessToken);
    expect([badPassword.status, badPassword.responseType]).toEqual([401, "invalid_credentials"]);
    expect(await o("secondFactor.disable", { body: { password: u.password } }, byRecovery.accessToken)).toBeNull();
    expect((await c("secondFactor.disable", { body: { password: u.password } }, byRecovery.accessToken)).responseType).toBe("not_found");
    expect((await o("login", { body: { username: u.username, password: u.password } }, none)).secondFactor).toBeUndefined();
  });

  it("a manager requires a second factor: a user without one enrols at sign-in and is signed in by the first code; nobody may turn theirs off; users may not change the switch", async () => {
    const u = await newUser();
    const userToken = (await o("login", { body: { username: u.username, password: u.password } }, none)).accessToken;
    const refused = await c("secondFactor.require", { body: { required: true } }, userToken);
    expect([refused.status, refused.responseType]).toEqual([403, "forbidden"]);
    expect(await o("secondFactor.require", { body: { required: true } })).toEqual({ required: true });
    try {
      expect(await o("secondFactor.status", {}, userToken)).toMatchObject({ enrolled: false, required: true });
      const login = await o("login", { body: { username: u.username, password: u.password } }, none);
      expect(login.secondFactor).toEqual({ step: "enrol" });
      // An enrol challenge is not a verify challenge, and neither is a session.
      expect((await c("secondFactor.signIn", { body: { challenge: login.accessToken, code: "123456" } }, none)).responseType).toBe(
        "token_verification_error",
      );
      const enrolment = await o("secondFactor.signInEnrol", { body: { challenge: login.accessToken } }, none);
      const done = await c(
        "secondFactor.signInConfirm",
        { body: { challenge: login.accessToken, code: codeFor(enrolment.secret, env.now()) } },
        none,
      );
      expect(done.status).toBe(200);
      expect(done.data.recoveryCodes).toHaveLength(10);
      expect(done.accessToken).toBe(done.data.accessToken);
      expect((await c("secondFactor.signInEnrol", { body: { challenge: login.accessToken } }, none)).responseType).toBe("conflict");
      const off = await c("secondFactor.disable", { body: { password: u.password } }, done.data.accessToken);
      expect([off.status, off.responseType]).toEqual([403, "forbidden"]);
      // Enrolled now: the next login asks for a code.
      expect((await o("login", { body: { username: u.username, password: u.password } }, none)).secondFactor).toEqual({ step: "verify" });
      // A lost phone and lost codes: the manager sees who has one and resets it; the user then enrols again.
      const listed = (await o("secondFactor.users", {})).find((x) => x.email === u.username);
      expect(listed).toMatchObject({ recoveryCodesLeft: 10 });
      expect((await c("secondFactor.users", {}, done.data.accessToken)).status).toBe(403);
      expect((await c("secondFactor.reset", { query: { id: listed!.id } }, done.data.accessToken)).status).toBe(403);
      expect(await o("secondFactor.reset", { query: { id: listed!.id } })).toEqual({ id: listed!.id });
      expect((await c("secondFactor.reset", { query: { id: listed!.id } })).responseType).toBe("not_found");
      expect((await o("secondFactor.users", {})).some((x) => x.id === listed!.id)).toBe(false);
      expect((await o("login", { body: { username: u.username, password: u.password } }, none)).secondFactor).toEqual({ step: "enrol" });
    } finally {
      expect(await o("secondFactor.require", { body: { required: false } })).toEqual({ required: false });
    }
  });
};
