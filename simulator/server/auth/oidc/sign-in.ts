import type { IDToken } from "openid-client";
import { grantedRole, noRoleReason } from "../../../../core/rules/sso-role.ts";
import type { ServerContext } from "../../context.ts";
import { nowIso, write } from "../../handlers/write.ts";
import { newId } from "../../store/ids.ts";
import { linkedUserId, linkIdentity, type SsoSettingsRow } from "../../store/sso.ts";
import * as users from "../../store/users.ts";

// Whose account a provider's answer opens (issue 33 item 1): the account linked to the provider's subject; at the
// first sign-in, the organisation's account with the provider's verified e-mail address (an invitation, or an
// account that had a password), else a new account, and only when the claims grant a role. When they no longer grant
// one, the linked account is disabled and its sessions end; when they grant one again, it is enabled again (the
// provider decides who works here: "a leaver is switched off there, once, for every system"). The role follows the
// provider's at every sign-in.

export type SignInOutcome =
  | { ok: true; user: users.UserRow; created: boolean; linked: boolean }
  | { ok: false; reason: "no_role" | "no_email" | "other_organisation"; message: string; user: users.UserRow | undefined };

const emailOf = (claims: IDToken): string | undefined =>
  typeof claims.email === "string" && claims.email_verified === true ? claims.email.trim().toLowerCase() : undefined;

export const signInAccount = async (ctx: ServerContext, s: SsoSettingsRow, claims: IDToken): Promise<SignInOutcome> => {
  const role = grantedRole(s.roleMap, claims[s.roleClaim]);
  const now = nowIso(ctx);
  const outcome = await write(ctx, async (tx): Promise<SignInOutcome> => {
    const linkedId = await linkedUserId(tx, claims.iss, claims.sub);
    const linked = linkedId ? await users.userById(tx, linkedId) : undefined;
    if (linked && linked.organisationId !== s.organisationId)
      return { ok: false, reason: "other_organisation", message: "This provider account belongs to another organisation.", user: linked };
    if (role === null) {
      if (linked && linked.state !== "disabled") {
        await tx.query("update users set state = 'disabled' where id = $1", [linked.id]);
        await ctx.sessions.endAll(tx, linked.id, "role_changed", now);
      }
      return { ok: false, reason: "no_role", message: noRoleReason(s.roleClaim, claims[s.roleClaim]), user: linked };
    }
    if (linked) {
      await tx.query("update users set state = 'active', role = $2 where id = $1", [linked.id, role]);
      return { ok: true, user: { ...linked, state: "active", role }, created: false, linked: false };
    }
    const email = emailOf(claims);
    if (!email)
      return {
        ok: false,
        reason: "no_email",
        message: "Your identity provider sent no verified e-mail address; Isopter needs one to open your account.",
        user: undefined,
      };
    const existing = await users.userByEmail(tx, email);
    if (existing && existing.organisationId !== s.organisationId)
      return {
        ok: false,
        reason: "other_organisation",
        message: "This e-mail address belongs to another organisation's account.",
        user: undefined,
      };
    const user: users.UserRow = existing
      ? { ...existing, state: "active", role, username: existing.username ?? email, invitationTokenHash: null }
      : {
          id: newId(),
          organisationId: s.organisationId,
          username: email,
          email,
          role,
          passwordHash: null,
          state: "active",
          invitationTokenHash: null,
          language: "en",
          createdAt: now,
        };
    if (existing)
      await tx.query("update users set state = 'active', role = $2, username = $3, invitation_token_hash = null where id = $1", [
        user.id,
        role,
        user.username,
      ]);
    else await users.insertUser(tx, user);
    await linkIdentity(tx, { issuer: claims.iss, subject: claims.sub, userId: user.id, organisationId: s.organisationId }, now);
    return { ok: true, user, created: !existing, linked: true };
  });
  if (!outcome.ok && outcome.reason === "no_role" && outcome.user) {
    ctx.forgetUser(outcome.user.id);
    ctx.live.endSessions(outcome.user.id, "role_changed");
  }
  if (outcome.ok) ctx.forgetUser(outcome.user.id);
  return outcome;
};
