-- Single sign-on over OpenID Connect (issue 33 item 1). One provider per organisation: its issuer, client id, the
-- client secret sealed with a key the database does not hold (auth/oidc/secret-box.ts), the claim whose values map
-- to roles, and whether the organisation's staff may still sign in with a password (admins always may).
create table sso_settings (
  organisation_id text primary key references organisations(id) on delete cascade,
  -- The per-organisation login link /login/<slug>.
  slug text not null unique,
  display_name text not null,
  issuer text not null,
  client_id text not null,
  client_secret_sealed text,
  role_claim text not null,
  role_map jsonb not null,
  password_login boolean not null default true,
  updated_at text not null
);

-- A sign-in under way: state, nonce and PKCE verifier of one authorization request, single-use and short-lived.
-- The state is kept as its SHA-256 hash; binding_hash ties the flow to the browser that began it. The nonce an ID
-- token must carry is this flow's, so a token issued for an earlier flow is refused.
create table sso_flows (
  state_hash text primary key,
  organisation_id text not null references organisations(id) on delete cascade,
  nonce text not null,
  code_verifier text not null,
  binding_hash text not null,
  redirect_uri text not null,
  expires_at bigint not null,
  used_at text
);
create index sso_flows_expiry on sso_flows (expires_at);

-- Which provider account is which user (issuer and subject are the provider's stable identity of a person).
create table sso_identities (
  issuer text not null,
  subject text not null,
  user_id text not null references users(id) on delete cascade,
  organisation_id text not null references organisations(id) on delete cascade,
  linked_at text not null,
  primary key (issuer, subject)
);

-- What logout needs to end the provider's session too: the ID token as hint, the provider's end_session_endpoint,
-- and where the provider sends the browser afterwards (the organisation's login link on the origin signed in from).
create table sso_sessions (
  session_id text primary key references sessions(id) on delete cascade,
  id_token text not null,
  end_session_endpoint text,
  post_logout_uri text not null
);
