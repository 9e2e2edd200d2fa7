import { createHmac } from "node:crypto";
import type { SecondFactorStep, TotpEnrolment } from "../../../core/model/contract/index.ts";
import type { ServerContext } from "../context.ts";
import { Failure } from "../http/failure.ts";
import * as factors from "../store/second-factor.ts";
import { userById, type UserRow } from "../store/users.ts";
import { looksLikeRecoveryCode, newRecoveryCodes, normaliseRecoveryCode } from "./recovery-codes.ts";
import { openSecret, recoveryCodeHash, sealSecret } from "./secret-box.ts";
import { matchingStep, newTotpSecret, otpauthUri } from "./totp.ts";

// The second factor's rules (issue 33 item 2). A login whose password is right becomes a challenge, a token of its
// own kind (never an access token), when the account has a confirmed factor (verify) or its organisation requires one
// it lacks (enrol). Codes are tried under an attempt limit in the database like passwords (limits.ts): five wrong
// codes per account per login window, then 429 until the window has passed, whatever challenge carries them.

/** "A TOTP code is refused ... after 5 wrong tries" (issue 33). */
export const SECOND_FACTOR_TRIES = 5;
/** How long a challenge lasts: time to open an authenticator app, or to enrol (our design). */
export const CHALLENGE_SECONDS = 5 * 60;
const ISSUER = "Isopter";

const nowIso = (ctx: ServerContext) => new Date(ctx.now()).toISOString();

/** Which password the challenge followed (a keyed hash of its hash): a password changed or reset since ends it. */
const passwordMark = (ctx: ServerContext, user: UserRow) =>
  createHmac("sha256", ctx.secretKeys.pepper)
    .update(`challenge ${user.passwordHash ?? ""}`)
    .digest("base64url")
    .slice(0, 16);

/** What login answers after a right password: null when the account goes straight in. */
export const secondStepOf = async (ctx: ServerContext, user: UserRow): Promise<{ step: SecondFactorStep; challenge: string } | null> => {
  const factor = await factors.secondFactorOf(ctx.db, user.id);
  const step = factor?.confirmed ? "verify" : (await factors.secondFactorRequired(ctx.db, user.organisationId)) ? "enrol" : null;
  if (step === null) return null;
  const challenge = ctx.signer.sign({
    kind: "second-factor",
    sub: user.id,
    organisationId: user.organisationId,
    role: user.role,
    username: user.username ?? user.email,
    email: user.email,
    // The hash as stored now: the login may have just re-hashed a shared-salt password (handlers/accounts.ts).
    ref: `${step}.${passwordMark(ctx, (await userById(ctx.db, user.id)) ?? user)}`,
    exp: Math.floor(ctx.now() / 1000) + CHALLENGE_SECONDS,
  });
  return { step, challenge };
};

/** The account a challenge of this step stands for, still active; refused like a bad token otherwise. */
export const challengedUser = async (ctx: ServerContext, challenge: string, step: SecondFactorStep): Promise<UserRow> => {
  const check = ctx.signer.verify(challenge, "second-factor", ctx.now());
  if (!check.ok)
    throw new Failure(
      check.reason,
      check.reason === "token_expired" ? "The sign-in took too long; log in again" : "Not a sign-in in progress",
    );
  const user = await userById(ctx.db, check.claims.sub);
  if (
    !user ||
    check.claims.ref !== `${step}.${passwordMark(ctx, user)}` ||
    user.state !== "active" ||
    user.organisationId !== check.claims.organisationId
  )
    throw new Failure("token_verification_error", "Not a sign-in in progress");
  return user;
};

const tooMany = () => new Failure("rate_limited", "Too many wrong codes; try again in a minute");

/**
 * Checks a code: a TOTP code for the sealed secret (confirming: the first code of an enrolment), or, for a confirmed
 * factor, an unused recovery code. Each try is counted before the check; a right code gives its try back.
 */
export const checkCode = async (ctx: ServerContext, user: UserRow, code: string, confirming: boolean): Promise<"totp" | "recovery"> => {
  const key = `second-factor:${user.id}`;
  if (!(await ctx.limits.take(key, { allowed: SECOND_FACTOR_TRIES, windowMs: ctx.settings.loginWindowMs }, ctx.now()))) throw tooMany();
  const factor = await factors.secondFactorOf(ctx.db, user.id);
  const secret = factor ? openSecret(ctx.secretKeys, factor.secretSealed) : undefined;
  let used: "totp" | "recovery" | null = null;
  if (factor && secret && factor.confirmed !== confirming) {
    const step = matchingStep(secret, code, ctx.now(), factor.lastStep);
    if (step !== null && (await ctx.db.transaction((tx) => factors.useStep(tx, user.id, step, confirming, nowIso(ctx))))) used = "totp";
    else if (!confirming && looksLikeRecoveryCode(code)) {
      const hash = recoveryCodeHash(ctx.secretKeys, normaliseRecoveryCode(code));
      if (await ctx.db.transaction((tx) => factors.useRecoveryCode(tx, user.id, hash, nowIso(ctx)))) used = "recovery";
    }
  }
  if (used === null) throw new Failure("invalid_credentials", "The code is not right, or has been used", "body.code");
  await ctx.limits.giveBack(key);
  return used;
};

/** A new secret waiting for its first code (again on each call until one is confirmed). */
export const beginEnrolment = async (ctx: ServerContext, user: UserRow): Promise<TotpEnrolment> => {
  const secret = newTotpSecret();
  const started = await ctx.db.transaction((tx) => factors.startEnrolment(tx, user.id, sealSecret(ctx.secretKeys, secret), nowIso(ctx)));
  if (!started) throw new Failure("conflict", "A second factor is set up already; turn it off first to set up another");
  const uri = otpauthUri(ISSUER, user.email, secret);
  return { secret: new URL(uri).searchParams.get("secret")!, uri };
};

/** Confirms an enrolment with its first code; answers the ten recovery codes, this once. */
export const confirmEnrolment = async (ctx: ServerContext, user: UserRow, code: string): Promise<string[]> => {
  await checkCode(ctx, user, code, true);
  const codes = newRecoveryCodes();
  await ctx.db.transaction((tx) =>
    factors.replaceRecoveryCodes(
      tx,
      user.id,
      codes.map((c) => recoveryCodeHash(ctx.secretKeys, normaliseRecoveryCode(c))),
    ),
  );
  return codes;
};
