import { SSO_CALLBACK_PATH, ssoLoginPath, type SsoSettings } from "../../../core/model/single-sign-on.ts";
import { ssoFlows, type TakeRefusal } from "../auth/oidc/flows.ts";
import {
  authorizationRequest,
  discover,
  endSessionUrl,
  exchangeCode,
  ProviderDown,
  SignInRefused,
  type Refusal,
} from "../auth/oidc/relying-party.ts";
import { ssoSecretBox } from "../auth/oidc/secret-box.ts";
import { signInAccount } from "../auth/oidc/sign-in.ts";
import type { ServerContext } from "../context.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import * as sso from "../store/sso.ts";
import { nowIso, write } from "./write.ts";

// Single sign-on (issue 33 item 1): the organisation's provider (managers and administrators), the login page's
// options, the authorization code flow in two calls, and logout that ends the provider's session too.
// Every refusal of a sign-in is audited with its reason and organisation (action sso.signIn), besides the router's
// event of the call itself, which names neither.

const refusalText: Record<Refusal | TakeRefusal, string> = {
  id_token_signature: "The identity provider's answer is not signed with its keys; sign-in refused.",
  id_token_expired: "The identity provider's answer has expired; sign in again.",
  id_token_audience: "The identity provider's answer was issued for another application; sign-in refused.",
  id_token_issuer: "The identity provider's answer names another issuer than this organisation's provider; sign-in refused.",
  id_token_nonce: "The identity provider's answer belongs to another sign-in (its nonce does not match); sign in again.",
  provider_refused: "The identity provider refused the sign-in.",
  code_refused: "The identity provider did not accept the sign-in code (used already or expired); sign in again.",
  answer_invalid: "The identity provider's answer could not be checked; sign-in refused.",
  state_unknown: "This sign-in is not known here; sign in again.",
  state_replayed: "This sign-in has been used already; sign in again.",
  state_expired: "This sign-in took too long and has expired; sign in again.",
  binding: "This sign-in was begun in another browser; sign in again from this one.",
};

const audit = (
  ctx: ServerContext,
  e: { organisationId: string | null; userId?: string | null; name?: string | null; outcome: string; address: string },
) =>
  ctx.audit.record({
    organisationId: e.organisationId,
    at: new Date(ctx.now()).toISOString(),
    actorKind: e.userId ? "user" : "anonymous",
    actorId: e.userId ?? null,
    actorName: e.name ?? null,
    address: e.address,
    action: "sso.signIn",
    outcome: e.outcome,
    recordType: e.userId ? "user" : null,
    recordId: e.userId ?? null,
  });

/** Sign-ins one address may begin per minute (a clinic's shared address: many staff at the start of a shift). */
const BEGINS_PER_MINUTE = 120;

const box = (ctx: ServerContext) => ssoSecretBox(ctx.secretKeys);

const secretOf = (ctx: ServerContext, s: sso.SsoSettingsRow) =>
  s.clientSecretSealed ? box(ctx).open(s.clientSecretSealed, s.organisationId) : undefined;

const answer = (s: sso.SsoSettingsRow): SsoSettings => ({
  slug: s.slug,
  displayName: s.displayName,
  issuer: s.issuer,
  clientId: s.clientId,
  clientSecretSet: s.clientSecretSealed !== null,
  roleClaim: s.roleClaim,
  roleMap: s.roleMap,
  passwordLogin: s.passwordLogin,
});

/** Whether discovery answered lately, per issuer: the login page asks on every visit, the provider is asked every 15 s. */
const reachable = new Map<string, { ok: boolean; until: number }>();
const PROBE_HOLD_MS = 15_000;

const withProvider = async <T>(s: sso.SsoSettingsRow, work: () => Promise<T>): Promise<T> => {
  try {
    const value = await work();
    reachable.set(s.issuer, { ok: true, until: Date.now() + PROBE_HOLD_MS });
    return value;
  } catch (e) {
    if (!(e instanceof ProviderDown)) throw e;
    reachable.set(s.issuer, { ok: false, until: Date.now() + PROBE_HOLD_MS });
    throw new Failure(
      "unavailable",
      s.passwordLogin
        ? `${s.displayName} cannot be reached just now; sign in with your password.`
        : `${s.displayName} cannot be reached just now; administrators can sign in with their password.`,
    );
  }
};

const redirectUriFor = (ctx: ServerContext, origin: string) => {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw invalid("body.redirectOrigin", "must be the page's origin, such as https://isopter.hospital.example");
  }
  const own = ctx.settings.publicUrl ? new URL(ctx.settings.publicUrl).origin : undefined;
  if (url.origin !== origin || !["http:", "https:"].includes(url.protocol) || (own !== undefined && own !== origin))
    throw invalid("body.redirectOrigin", "must be this server's public origin");
  return `${origin}${SSO_CALLBACK_PATH}`;
};

export const ssoHandlers: SomeHandlers<
  "sso.settings" | "sso.settingsUpdate" | "sso.settingsDelete" | "sso.loginOptions" | "sso.begin" | "sso.complete" | "sso.logout"
> = {
  "sso.settings": async (call) => {
    const s = await sso.ssoSettingsOf(call.ctx.db, claimsOf(call).organisationId);
    return { data: s ? answer(s) : null };
  },
  "sso.settingsUpdate": async (call) => {
    const { ctx, body } = call;
    const organisationId = claimsOf(call).organisationId;
    const saved = await write(ctx, async (tx) => {
      const before = await sso.ssoSettingsOf(tx, organisationId);
      const taken = await sso.ssoSettingsBySlug(tx, body.slug);
      if (taken && taken.organisationId !== organisationId)
        throw new Failure("conflict", "Another organisation's login link has this name; choose another", "body.slug");
      let sealed = before?.clientSecretSealed ?? null;
      if (body.clientSecret !== null) sealed = box(ctx).seal(body.clientSecret, organisationId);
      const row: sso.SsoSettingsRow = { organisationId, ...body, clientSecretSealed: sealed };
      await sso.saveSsoSettings(tx, row, nowIso(ctx));
      return row;
    });
    return { data: answer(saved) };
  },
  "sso.settingsDelete": async (call) => {
    const organisationId = claimsOf(call).organisationId;
    await write(call.ctx, (tx) => sso.deleteSsoSettings(tx, organisationId));
    return { data: null };
  },
  "sso.loginOptions": async (call) => {
    const { ctx } = call;
    const s = await sso.ssoSettingsBySlug(ctx.db, call.query.organisation);
    if (!s) throw notFound("Organisation's login link", "query.organisation");
    const org = (await ctx.db.query<{ name: string }>("select name from organisations where id = $1", [s.organisationId]))[0]!;
    let known = reachable.get(s.issuer);
    if (!known || known.until < Date.now()) {
      const ok = await discover(s, undefined, ctx.now()).then(
        () => true,
        () => false,
      );
      reachable.set(s.issuer, (known = { ok, until: Date.now() + PROBE_HOLD_MS }));
    }
    return {
      data: { organisationName: org.name, displayName: s.displayName, passwordLogin: s.passwordLogin, providerReachable: known.ok },
    };
  },
  "sso.begin": async (call) => {
    const { ctx, body } = call;
    const s = await sso.ssoSettingsBySlug(ctx.db, body.organisation);
    if (!s) throw notFound("Organisation's login link", "body.organisation");
    const redirectUri = redirectUriFor(ctx, body.redirectOrigin);
    // Each begin stores a flow for ten minutes: an address may begin BEGINS_PER_MINUTE a minute.
    if (!(await ctx.limits.take(`sso-begin:${call.client}`, { allowed: BEGINS_PER_MINUTE, windowMs: 60_000 }, ctx.now())))
      throw new Failure("rate_limited", "Too many sign-ins begun from this address; try again in a minute");
    const config = await withProvider(s, () => discover(s, secretOf(ctx, s), ctx.now()));
    const request = await authorizationRequest(config, redirectUri, s.roleClaim);
    const binding = await ssoFlows(ctx.db).open({ organisationId: s.organisationId, redirectUri, ...request }, ctx.now());
    return { data: { authorizationUrl: request.url, binding } };
  },
  "sso.complete": async (call) => {
    const { ctx, body, client } = call;
    const params = new URLSearchParams(body.callback.replace(/^\?/, ""));
    const state = params.get("state");
    if (!state) throw invalid("body.callback", "the provider's answer carries no state");
    const refuse = (organisationId: string | null, reason: Refusal | TakeRefusal, detail?: string): never => {
      audit(ctx, { organisationId, outcome: reason, address: client });
      throw new Failure("invalid_credentials", detail ? `${refusalText[reason]} (${detail})` : refusalText[reason]);
    };
    const taken = await ssoFlows(ctx.db).take(state, body.binding, ctx.now());
    if (!taken.ok) return refuse(taken.organisationId, taken.reason);
    const { flow } = taken;
    const s = await sso.ssoSettingsOf(ctx.db, flow.organisationId);
    if (!s) throw new Failure("not_found", "This organisation no longer signs in through a provider");
    const config = await withProvider(s, () => discover(s, secretOf(ctx, s), ctx.now()));
    const callbackUrl = new URL(flow.redirectUri);
    callbackUrl.search = params.toString();
    const checked = await withProvider(s, () => exchangeCode(config, callbackUrl, flow)).catch((e: unknown) => {
      if (e instanceof SignInRefused)
        return refuse(
          flow.organisationId,
          e.reason,
          e.reason === "provider_refused" ? (params.get("error_description") ?? params.get("error") ?? undefined) : undefined,
        );
      throw e;
    });
    const outcome = await signInAccount(ctx, s, checked.claims);
    if (!outcome.ok) {
      audit(ctx, {
        organisationId: flow.organisationId,
        userId: outcome.user?.id ?? null,
        name: outcome.user?.username ?? checked.claims.sub,
        outcome: outcome.reason,
        address: client,
      });
      throw new Failure("forbidden", outcome.message);
    }
    const user = outcome.user;
    const { sid } = await ctx.sessions.start(user, client, nowIso(ctx));
    ctx.live.endSessions(user.id, "another_session_opened", { keep: sid });
    await sso.rememberSsoSession(ctx.db, {
      sessionId: sid,
      idToken: checked.idToken,
      endSessionEndpoint: config.serverMetadata().end_session_endpoint ?? null,
      postLogoutUri: `${new URL(flow.redirectUri).origin}${ssoLoginPath(s.slug)}`,
    });
    audit(ctx, { organisationId: user.organisationId, userId: user.id, name: user.username, outcome: "success", address: client });
    const accessToken = ctx.issueAccessToken({
      sub: user.id,
      organisationId: user.organisationId,
      role: user.role,
      username: user.username ?? user.email,
      email: user.email,
      sid,
    });
    return { data: { accessToken }, accessToken };
  },
  "sso.logout": async (call) => {
    const { ctx } = call;
    const claims = claimsOf(call);
    let url: string | null = null;
    if (claims.sid) {
      const held = await sso.ssoSessionOf(ctx.db, claims.sid);
      if (held) url = endSessionUrl(held.end_session_endpoint, held.id_token, held.post_logout_uri);
      await ctx.sessions.endOne(ctx.db, claims.sid, "logout", nowIso(ctx));
      ctx.live.endSessions(claims.sub, "logout", { only: claims.sid });
    }
    return { data: { endSessionUrl: url } };
  },
};
