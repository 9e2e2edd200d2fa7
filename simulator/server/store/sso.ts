import type { SsoRoleMap } from "../../../core/model/single-sign-on.ts";
import type { Queryable, Row } from "../db/database.ts";

// The organisations' identity providers (sso_settings), the provider accounts linked to users (sso_identities) and
// what a session opened through a provider needs at logout (sso_sessions): migration 019.

export interface SsoSettingsRow {
  readonly organisationId: string;
  readonly slug: string;
  readonly displayName: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecretSealed: string | null;
  readonly roleClaim: string;
  readonly roleMap: SsoRoleMap;
  readonly passwordLogin: boolean;
}

const toSettings = (r: Row): SsoSettingsRow => ({
  organisationId: r.organisation_id as string,
  slug: r.slug as string,
  displayName: r.display_name as string,
  issuer: r.issuer as string,
  clientId: r.client_id as string,
  clientSecretSealed: (r.client_secret_sealed as string | null) ?? null,
  roleClaim: r.role_claim as string,
  roleMap: (typeof r.role_map === "string" ? JSON.parse(r.role_map) : r.role_map) as SsoRoleMap,
  passwordLogin: r.password_login as boolean,
});

export const ssoSettingsOf = async (q: Queryable, organisationId: string): Promise<SsoSettingsRow | undefined> => {
  const rows = await q.query("select * from sso_settings where organisation_id = $1", [organisationId]);
  return rows[0] ? toSettings(rows[0]) : undefined;
};

export const ssoSettingsBySlug = async (q: Queryable, slug: string): Promise<SsoSettingsRow | undefined> => {
  const rows = await q.query("select * from sso_settings where slug = $1", [slug]);
  return rows[0] ? toSettings(rows[0]) : undefined;
};

export const saveSsoSettings = async (q: Queryable, s: SsoSettingsRow, now: string) => {
  await q.query(
    `insert into sso_settings (organisation_id, slug, display_name, issuer, client_id, client_secret_sealed, role_claim, role_map,
       password_login, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)
     on conflict (organisation_id) do update set slug = excluded.slug, display_name = excluded.display_name,
       issuer = excluded.issuer, client_id = excluded.client_id, client_secret_sealed = excluded.client_secret_sealed,
       role_claim = excluded.role_claim, role_map = excluded.role_map, password_login = excluded.password_login,
       updated_at = excluded.updated_at`,
    [
      s.organisationId,
      s.slug,
      s.displayName,
      s.issuer,
      s.clientId,
      s.clientSecretSealed,
      s.roleClaim,
      JSON.stringify(s.roleMap),
      s.passwordLogin,
      now,
    ],
  );
};

export const deleteSsoSettings = async (q: Queryable, organisationId: string) => {
  await q.query("delete from sso_settings where organisation_id = $1", [organisationId]);
};

/** The user a provider account is linked to. */
export const linkedUserId = async (q: Queryable, issuer: string, subject: string): Promise<string | undefined> =>
  (await q.query<{ user_id: string }>("select user_id from sso_identities where issuer = $1 and subject = $2", [issuer, subject]))[0]
    ?.user_id;

export const linkIdentity = async (
  q: Queryable,
  link: { issuer: string; subject: string; userId: string; organisationId: string },
  now: string,
) => {
  await q.query(
    "insert into sso_identities (issuer, subject, user_id, organisation_id, linked_at) values ($1, $2, $3, $4, $5) on conflict do nothing",
    [link.issuer, link.subject, link.userId, link.organisationId, now],
  );
};

export const rememberSsoSession = async (
  q: Queryable,
  s: { sessionId: string; idToken: string; endSessionEndpoint: string | null; postLogoutUri: string },
) => {
  await q.query("insert into sso_sessions (session_id, id_token, end_session_endpoint, post_logout_uri) values ($1, $2, $3, $4)", [
    s.sessionId,
    s.idToken,
    s.endSessionEndpoint,
    s.postLogoutUri,
  ]);
};

export const ssoSessionOf = async (q: Queryable, sessionId: string) =>
  (
    await q.query<{ id_token: string; end_session_endpoint: string | null; post_logout_uri: string }>(
      "select id_token, end_session_endpoint, post_logout_uri from sso_sessions where session_id = $1",
      [sessionId],
    )
  )[0];
