import {
  deleteRefusal,
  inviteRefusal,
  roleChangeRefusal,
  userAdminRefusalText,
  type UserAdminRefusal,
} from "../../../core/rules/user-admin.ts";
import { createHash } from "node:crypto";
import { Role } from "../../../core/model/enums.ts";
import { isStrongPassword, passwordProblems } from "../../../core/rules/password.ts";
import { isValidEmail } from "../../../core/rules/email.ts";
import { regulatoryRegionForCountry } from "../../../core/rules/regulatory-region.ts";
import { decoyHash, hashPassword, saltOf, verifyPassword } from "../auth/password.ts";
import { queueMail } from "../auth/mail.ts";
import { refuseClosedPasswordLogin } from "../auth/oidc/password-policy.ts";
import { secondStepOf } from "../auth/second-factor.ts";
import type { TokenClaims } from "../auth/token.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, forbidden, invalid, notFound } from "../http/failure.ts";
import * as users from "../store/users.ts";
import { newId } from "../store/ids.ts";
import { nowIso, write } from "./write.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";

// Accounts: accounts seed §7 (login, logout, check_token, password reset and change, sign-up by invitation, users,
// organisation, version) and the user profile the manual needs. Only managers administer users (accounts §6).

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const requireManager = (claims: TokenClaims) => {
  if (claims.role !== Role.Manager) throw forbidden(userAdminRefusalText["managers-only"]);
};

/** core/rules/user-admin: the screens offer only what these allow. */
const refuse = (refusal: UserAdminRefusal | null) => {
  if (refusal !== null) throw forbidden(userAdminRefusalText[refusal]);
};

const checkPassword = (password: string, field: string) => {
  if (!isStrongPassword(password))
    throw invalid(
      field,
      passwordProblems(password)
        .map((p) => p.text)
        .join(" "),
    );
};

const organisationRow = async (q: Queryable, id: string) =>
  (
    await q.query<{ id: string; name: string; multi_tests: boolean; market: string; country: string | null }>(
      "select * from organisations where id = $1",
      [id],
    )
  )[0]!;

/** A login session: a new session row; the user's other sessions end (another session opened), here and on sockets. */
export const startSession = async (ctx: ServerContext, user: users.UserRow, address: string) => {
  const { sid } = await ctx.sessions.start(user, address, nowIso(ctx));
  ctx.live.endSessions(user.id, "another_session_opened", { keep: sid });
  return ctx.issueAccessToken({
    sub: user.id,
    organisationId: user.organisationId,
    role: user.role,
    username: user.username ?? user.email,
    email: user.email,
    sid,
  });
};

/** Hashes made before every hash got its own salt (the demo accounts shared one) are made again at the next login. */
const rehashSharedSalt = async (ctx: ServerContext, user: users.UserRow, password: string) => {
  const salt = saltOf(user.passwordHash);
  if (!salt) return;
  const shared = await ctx.db.query("select 1 from users where id <> $1 and split_part(password_hash, '$', 5) = $2 limit 1", [
    user.id,
    salt,
  ]);
  if (shared.length === 0) return;
  const hash = await hashPassword(password);
  await ctx.db.transaction((tx) =>
    tx.query("update users set password_hash = $2 where id = $1 and password_hash = $3", [user.id, hash, user.passwordHash]),
  );
};

const tooMany = () => new Failure("rate_limited", "Too many failed attempts; try again in a minute");

/**
 * Takes a login attempt for the account and the address (issue 15 §3). The account's limit holds everywhere; the
 * address's holds except for accounts that have logged in from that address before, so an attacker behind a clinic's
 * shared address blocks the address, not the clinic's staff.
 */
const takeLoginAttempt = async (ctx: ServerContext, username: string, address: string) => {
  const { loginFailuresAllowed, loginAddressFailuresAllowed, loginWindowMs } = ctx.settings;
  const now = ctx.now();
  const accountKey = `login-account:${username.toLowerCase()}`;
  const addressKey = `login-address:${address}`;
  const addressOk = await ctx.limits.take(addressKey, { allowed: loginAddressFailuresAllowed, windowMs: loginWindowMs }, now);
  if (!addressOk) {
    const known = await ctx.db.query("select 1 from login_addresses where username = $1 and address = $2", [
      username.toLowerCase(),
      address,
    ]);
    if (known.length === 0) throw tooMany();
  }
  if (!(await ctx.limits.take(accountKey, { allowed: loginFailuresAllowed, windowMs: loginWindowMs }, now))) throw tooMany();
  return { accountKey, addressKey };
};

export const accountHandlers: SomeHandlers<
  | "login"
  | "logout"
  | "checkToken"
  | "passwordReset.request"
  | "passwordReset.confirm"
  | "passwordReset.check"
  | "passwordChange"
  | "user.signup"
  | "user.invite"
  | "user.update"
  | "user.delete"
  | "user.all"
  | "user.profile"
  | "organisation.current"
  | "version"
> = {
  login: async (call) => {
    const { ctx } = call;
    const username = call.body.username.trim();
    if (username === "") throw invalid("body.username", "This field is required.");
    if (call.body.password === "") throw invalid("body.password", "This field is required.");
    const keys = await takeLoginAttempt(ctx, username, call.client);
    const user = await users.userByUsername(ctx.db, username);
    const usable = user !== undefined && user.state === "active" && user.passwordHash !== null;
    // An unknown or inactive account is checked against a decoy hash: the same scrypt work as a wrong password.
    const matches = await verifyPassword(call.body.password, usable ? user.passwordHash : await decoyHash());
    if (!usable || !matches) throw new Failure("invalid_credentials", "Login failed.");
    await refuseClosedPasswordLogin(ctx, user);
    await ctx.limits.giveBack(keys.accountKey);
    await ctx.limits.giveBack(keys.addressKey);
    await ctx.db.transaction((tx) =>
      tx.query(
        `insert into login_addresses (username, address, last_success_at) values ($1, $2, $3)
         on conflict (username, address) do update set last_success_at = excluded.last_success_at`,
        [username.toLowerCase(), call.client, nowIso(ctx)],
      ),
    );
    await rehashSharedSalt(ctx, user, call.body.password);
    // A second factor (issue 33 item 2): no session yet, a challenge for the second step (auth/second-factor.ts).
    const second = await secondStepOf(ctx, user);
    if (second) return { data: { accessToken: second.challenge, secondFactor: { step: second.step } } };
    const accessToken = await startSession(ctx, user, call.client);
    return { data: { accessToken }, accessToken };
  },
  logout: async (call) => {
    const claims = claimsOf(call);
    if (claims.sid) await call.ctx.sessions.endOne(call.ctx.db, claims.sid, "logout", nowIso(call.ctx));
    if (claims.sid) call.ctx.live.endSessions(claims.sub, "logout", { only: claims.sid });
    return { data: null };
  },
  checkToken: async (call) => {
    const c = claimsOf(call);
    return { data: { role: c.role, username: c.username, email: c.email, exp: c.exp, sub: c.sub, organisationId: c.organisationId } };
  },
  "passwordReset.request": async (call) => {
    const { ctx } = call;
    const email = call.body.email.trim();
    if (!isValidEmail(email)) throw invalid("body.email", "Enter a valid e-mail address.");
    // Limited per address and per e-mail address, counted alike whether an account uses it or not.
    const limit = { allowed: ctx.settings.resetRequestsAllowed, windowMs: ctx.settings.resetWindowMs };
    const byAddress = await ctx.limits.take(`reset-address:${call.client}`, limit, ctx.now());
    const byEmail = await ctx.limits.take(`reset-email:${email.toLowerCase()}`, limit, ctx.now());
    if (!byAddress || !byEmail) throw tooMany();
    const user = await users.userByEmail(ctx.db, email);
    // No account enumeration: an address no active account uses gets the same answer, and no e-mail.
    if (user?.state !== "active") return { data: null };
    const now = ctx.now();
    const ref = newId();
    const token = ctx.signer.sign({
      kind: "reset",
      sub: user.id,
      organisationId: user.organisationId,
      role: user.role,
      username: user.username ?? user.email,
      email: user.email,
      ref,
      exp: Math.floor(now / 1000) + ctx.settings.resetTokenTtlSeconds,
    });
    const link = `${ctx.settings.publicUrl}/password-reset/${token}`;
    await write(ctx, async (tx) => {
      await tx.query("insert into password_resets (token_hash, user_id, expires_at) values ($1, $2, $3)", [
        sha256(token),
        user.id,
        new Date(now + ctx.settings.resetTokenTtlSeconds * 1000).toISOString(),
      ]);
      await queueMail(
        tx,
        {
          organisationId: user.organisationId,
          to: user.email,
          subject: "Reset your Isopter password",
          body: `Open this link to choose a new password: ${link}`,
          link,
        },
        nowIso(ctx),
      );
    });
    return { data: null };
  },
  "passwordReset.confirm": async (call) => {
    const { ctx } = call;
    const claims = call.claims!;
    if (call.body.token !== call.token) throw invalid("body.token", "must be the token of the link");
    if (call.body.email.trim().toLowerCase() !== claims.email.toLowerCase())
      throw notFound("Account with this e-mail address", "body.email");
    checkPassword(call.body.password, "body.password");
    const hash = await hashPassword(call.body.password);
    await write(ctx, async (tx) => {
      const rows = await tx.query<{ used_at: string | null }>(
        "select used_at from password_resets where token_hash = $1 and user_id = $2 for update",
        [sha256(call.token), claims.sub],
      );
      if (!rows[0] || rows[0].used_at !== null) throw new Failure("token_expired", "This link has been used already; request a new one");
      await tx.query("update password_resets set used_at = $2 where token_hash = $1", [sha256(call.token), nowIso(ctx)]);
      await tx.query("update users set password_hash = $2 where id = $1", [claims.sub, hash]);
      await ctx.sessions.endAll(tx, claims.sub, "password_reset", nowIso(ctx));
    });
    ctx.forgetUser(claims.sub);
    ctx.live.endSessions(claims.sub, "password_reset");
    return { data: null };
  },
  // The reset page's check when it opens: the router has verified the token's signature and expiry; a used (or unknown)
  // link is refused as confirm would refuse it. Reads only: the link stays usable.
  "passwordReset.check": async (call) => {
    const rows = await call.ctx.db.query<{ used_at: string | null }>(
      "select used_at from password_resets where token_hash = $1 and user_id = $2",
      [sha256(call.token), call.claims!.sub],
    );
    if (!rows[0] || rows[0].used_at !== null) throw new Failure("token_expired", "This link has been used already; request a new one");
    return { data: null };
  },
  passwordChange: async (call) => {
    const { ctx } = call;
    const claims = claimsOf(call);
    const key = `password-change:${claims.sub}`;
    if (!(await ctx.limits.take(key, { allowed: ctx.settings.loginFailuresAllowed, windowMs: ctx.settings.loginWindowMs }, ctx.now())))
      throw tooMany();
    const user = await users.userById(ctx.db, claims.sub);
    if (!user || !(await verifyPassword(call.body.old_password, user.passwordHash)))
      throw new Failure("invalid_credentials", "The old password is not right", "body.old_password");
    await ctx.limits.giveBack(key);
    checkPassword(call.body.new_password, "body.new_password");
    const hash = await hashPassword(call.body.new_password);
    // The user's other sessions end; the one that changed the password goes on.
    await write(ctx, async (tx) => {
      await tx.query("update users set password_hash = $2 where id = $1", [user.id, hash]);
      await ctx.sessions.endAll(tx, user.id, "password_changed", nowIso(ctx), claims.sid);
    });
    ctx.live.endSessions(user.id, "password_changed", claims.sid ? { keep: claims.sid } : {});
    return { data: null };
  },
  "user.signup": async (call) => {
    const { ctx } = call;
    const claims = call.claims!;
    if (call.body.invitationToken !== call.token) throw invalid("body.invitationToken", "must be the token of the invitation");
    if (call.body.invitationId !== claims.ref) throw notFound("Invitation", "body.invitationId");
    checkPassword(call.body.password, "body.password");
    const hash = await hashPassword(call.body.password);
    await write(ctx, async (tx) => {
      const user = await users.userById(tx, claims.ref!);
      if (!user) throw notFound("Invitation", "body.invitationId");
      if (user.state === "active") throw new Failure("already_registered", "This invitation has been accepted already");
      if (user.invitationTokenHash !== sha256(call.token)) throw notFound("Invitation", "body.invitationId");
      await tx.query("update users set state = 'active', username = $2, password_hash = $3, invitation_token_hash = null where id = $1", [
        user.id,
        user.email.toLowerCase(),
        hash,
      ]);
    });
    return { data: null };
  },
  "user.invite": async (call) => {
    const { ctx } = call;
    const claims = claimsOf(call);
    requireManager(claims);
    refuse(inviteRefusal(claims.role, call.body.role));
    const emails = call.body.emails.map((e) => e.trim().toLowerCase());
    if (emails.length === 0) throw invalid("body.emails", "at least one e-mail address is needed");
    emails.forEach((e, i) => {
      if (!isValidEmail(e)) throw invalid(`body.emails.${i}`, "Enter a valid e-mail address.");
    });
    const answer = await write(ctx, async (tx) => {
      const invited: string[] = [];
      const alreadyInvited: string[] = [];
      const alreadyRegistered: string[] = [];
      for (const email of [...new Set(emails)]) {
        const existing = await users.userByEmail(tx, email);
        if (existing?.state === "active") alreadyRegistered.push(email);
        else if (existing) alreadyInvited.push(email);
        else {
          const id = newId();
          const token = ctx.signer.sign({
            kind: "invitation",
            sub: id,
            organisationId: claims.organisationId,
            role: call.body.role,
            username: email,
            email,
            ref: id,
            exp: Math.floor(ctx.now() / 1000) + ctx.settings.invitationTtlSeconds,
          });
          await users.insertUser(tx, {
            id,
            organisationId: claims.organisationId,
            username: null,
            email,
            role: call.body.role,
            passwordHash: null,
            state: "invited",
            invitationTokenHash: sha256(token),
            language: "en",
            createdAt: nowIso(ctx),
          });
          const link = `${ctx.settings.publicUrl}/signup/${id}/${token}`;
          await queueMail(
            tx,
            {
              organisationId: claims.organisationId,
              to: email,
              subject: "You are invited to Isopter",
              body: `Choose a password to join: ${link}`,
              link,
            },
            nowIso(ctx),
          );
          invited.push(email);
        }
      }
      return { invited, alreadyInvited, alreadyRegistered };
    });
    if (answer.invited.length === 0)
      throw new Failure(
        answer.alreadyInvited.length ? "already_invited" : "already_registered",
        "Every address has been invited or registered already",
        "body.emails",
      );
    const partial = answer.alreadyInvited.length + answer.alreadyRegistered.length > 0;
    return partial ? { data: answer, responseType: "invitations_partial" } : { data: answer };
  },
  "user.update": async (call) => {
    const claims = claimsOf(call);
    requireManager(claims);
    const target = await users.userById(call.ctx.db, call.query.id);
    if (!target || target.organisationId !== claims.organisationId) throw notFound("User");
    refuse(roleChangeRefusal({ id: claims.sub, role: claims.role }, target, call.body.role));
    await write(call.ctx, async (tx) => {
      await tx.query("update users set role = $2 where id = $1", [target.id, call.body.role]);
      await call.ctx.sessions.endAll(tx, target.id, "role_changed", nowIso(call.ctx));
    });
    call.ctx.forgetUser(target.id);
    call.ctx.live.endSessions(target.id, "role_changed");
    return { data: users.toUser({ ...target, role: call.body.role }) };
  },
  "user.delete": async (call) => {
    const claims = claimsOf(call);
    requireManager(claims);
    const target = await users.userById(call.ctx.db, call.query.id);
    if (!target || target.organisationId !== claims.organisationId) throw notFound("User");
    refuse(deleteRefusal({ id: claims.sub, role: claims.role }, target));
    await write(call.ctx, (tx) => tx.query("delete from users where id = $1", [target.id]));
    call.ctx.forgetUser(target.id);
    call.ctx.live.endSessions(target.id, "user_deleted");
    return { data: { id: target.id } };
  },
  "user.all": async (call) => {
    const claims = claimsOf(call);
    requireManager(claims);
    return { data: (await users.usersOf(call.ctx.db, claims.organisationId)).map(users.toUser) };
  },
  "user.profile": async (call) => {
    const claims = claimsOf(call);
    const user = (await users.userById(call.ctx.db, claims.sub))!;
    const org = await organisationRow(call.ctx.db, claims.organisationId);
    return {
      data: {
        id: user.id,
        username: user.username ?? user.email,
        email: user.email,
        role: user.role,
        organisationId: org.id,
        market: org.country ? regulatoryRegionForCountry(org.country) : (org.market as "FDA"),
        country: org.country,
        language: user.language,
        multiTests: org.multi_tests,
      },
    };
  },
  "organisation.current": async (call) => {
    const org = await organisationRow(call.ctx.db, claimsOf(call).organisationId);
    return { data: { id: org.id, name: org.name, multiTests: org.multi_tests, market: org.market as "FDA", country: org.country } };
  },
  version: async (call) => ({ data: { version: call.ctx.version } }),
};
