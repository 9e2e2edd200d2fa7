import { beginEnrolment, challengedUser, checkCode, confirmEnrolment } from "../auth/second-factor.ts";
import { verifyPassword } from "../auth/password.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, forbidden, notFound } from "../http/failure.ts";
import * as factors from "../store/second-factor.ts";
import { userById } from "../store/users.ts";
import type { ServerContext } from "../context.ts";
import { startSession } from "./accounts.ts";

// The second factor's calls (issue 33 item 2; contract/second-factor.ts): the sign-in steps after a right password,
// the settings' enrol, confirm and disable, and the organisation's "required" switch. Each call is audited by the
// router (audit/calls.ts): enrolments (confirm), disabling, and every refused code with its outcome.

const me = async (ctx: ServerContext, userId: string) => {
  const user = await userById(ctx.db, userId);
  if (!user) throw notFound("User");
  return user;
};

export const secondFactorHandlers: SomeHandlers<
  | "secondFactor.signIn"
  | "secondFactor.signInEnrol"
  | "secondFactor.signInConfirm"
  | "secondFactor.status"
  | "secondFactor.enrol"
  | "secondFactor.confirm"
  | "secondFactor.disable"
  | "secondFactor.require"
  | "secondFactor.users"
  | "secondFactor.reset"
> = {
  "secondFactor.signIn": async (call) => {
    const user = await challengedUser(call.ctx, call.body.challenge, "verify");
    await checkCode(call.ctx, user, call.body.code, false);
    const accessToken = await startSession(call.ctx, user, call.client);
    return { data: { accessToken }, accessToken };
  },
  "secondFactor.signInEnrol": async (call) => {
    const user = await challengedUser(call.ctx, call.body.challenge, "enrol");
    return { data: await beginEnrolment(call.ctx, user) };
  },
  "secondFactor.signInConfirm": async (call) => {
    const user = await challengedUser(call.ctx, call.body.challenge, "enrol");
    const recoveryCodes = await confirmEnrolment(call.ctx, user, call.body.code);
    const accessToken = await startSession(call.ctx, user, call.client);
    return { data: { accessToken, recoveryCodes }, accessToken };
  },
  "secondFactor.status": async (call) => {
    const claims = claimsOf(call);
    const factor = await factors.secondFactorOf(call.ctx.db, claims.sub);
    return {
      data: {
        enrolled: factor?.confirmed ?? false,
        required: await factors.secondFactorRequired(call.ctx.db, claims.organisationId),
        recoveryCodesLeft: factor?.confirmed ? await factors.recoveryCodesLeft(call.ctx.db, claims.sub) : 0,
      },
    };
  },
  "secondFactor.enrol": async (call) => ({ data: await beginEnrolment(call.ctx, await me(call.ctx, claimsOf(call).sub)) }),
  "secondFactor.confirm": async (call) => {
    const user = await me(call.ctx, claimsOf(call).sub);
    return { data: { recoveryCodes: await confirmEnrolment(call.ctx, user, call.body.code) } };
  },
  "secondFactor.disable": async (call) => {
    const { ctx } = call;
    const claims = claimsOf(call);
    // The password again, under the password change's limit: a session left open is not enough to remove the factor.
    const key = `password-change:${claims.sub}`;
    if (!(await ctx.limits.take(key, { allowed: ctx.settings.loginFailuresAllowed, windowMs: ctx.settings.loginWindowMs }, ctx.now())))
      throw new Failure("rate_limited", "Too many failed attempts; try again in a minute");
    const user = await me(ctx, claims.sub);
    if (!(await verifyPassword(call.body.password, user.passwordHash)))
      throw new Failure("invalid_credentials", "The password is not right", "body.password");
    await ctx.limits.giveBack(key);
    if (await factors.secondFactorRequired(ctx.db, claims.organisationId))
      throw forbidden("Your organisation requires a second factor; it cannot be turned off");
    const factor = await factors.secondFactorOf(ctx.db, claims.sub);
    if (!factor) throw new Failure("not_found", "No second factor is set up");
    await ctx.db.transaction((tx) => factors.removeSecondFactor(tx, claims.sub));
    return { data: null };
  },
  "secondFactor.require": async (call) => {
    const claims = claimsOf(call);
    await call.ctx.db.transaction((tx) => factors.setSecondFactorRequired(tx, claims.organisationId, call.body.required));
    return { data: { required: call.body.required } };
  },
  "secondFactor.users": async (call) => ({ data: await factors.usersWithSecondFactor(call.ctx.db, claimsOf(call).organisationId) }),
  // A lost phone and lost recovery codes: a manager removes the factor; the user's password alone signs in again (or
  // leads to enrolment where the organisation requires a second factor).
  "secondFactor.reset": async (call) => {
    const claims = claimsOf(call);
    const target = await userById(call.ctx.db, call.query.id);
    if (!target || target.organisationId !== claims.organisationId) throw notFound("User");
    if (!(await factors.secondFactorOf(call.ctx.db, target.id))) throw notFound("Second factor");
    await call.ctx.db.transaction((tx) => factors.removeSecondFactor(tx, target.id));
    return { data: { id: target.id } };
  },
};
