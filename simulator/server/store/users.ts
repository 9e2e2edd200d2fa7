import type { Role, Language } from "../../../core/model/enums.ts";
import type { User } from "../../../core/model/user.ts";
import type { Queryable, Row } from "../db/database.ts";

export interface UserRow {
  readonly id: string;
  readonly organisationId: string;
  readonly username: string | null;
  readonly email: string;
  readonly role: Role;
  readonly passwordHash: string | null;
  readonly state: "invited" | "active" | "disabled";
  readonly invitationTokenHash: string | null;
  readonly language: Language;
  readonly createdAt: string;
}

export const toUserRow = (r: Row): UserRow => ({
  id: r.id as string,
  organisationId: r.organisation_id as string,
  username: (r.username as string | null) ?? null,
  email: r.email as string,
  role: r.role as Role,
  passwordHash: (r.password_hash as string | null) ?? null,
  state: r.state as UserRow["state"],
  invitationTokenHash: (r.invitation_token_hash as string | null) ?? null,
  language: r.language as Language,
  createdAt: r.created_at as string,
});

export const toUser = (u: UserRow): User => ({
  id: u.id,
  email: u.email,
  username: u.username,
  role: u.role,
  status: u.state,
  createdAt: u.createdAt,
});

const one = async (q: Queryable, sql: string, params: unknown[]) => {
  const rows = await q.query(sql, params);
  return rows[0] ? toUserRow(rows[0]) : undefined;
};

export const userById = (q: Queryable, id: string) => one(q, "select * from users where id = $1", [id]);
export const userByUsername = (q: Queryable, username: string) =>
  one(q, "select * from users where lower(username) = lower($1)", [username]);
export const userByEmail = (q: Queryable, email: string) => one(q, "select * from users where lower(email) = lower($1)", [email]);

export const usersOf = async (q: Queryable, org: string): Promise<UserRow[]> =>
  (await q.query("select * from users where organisation_id = $1 order by created_at, email", [org])).map(toUserRow);

export const insertUser = async (q: Queryable, u: UserRow) => {
  await q.query(
    `insert into users (id, organisation_id, username, email, role, password_hash, state, invitation_token_hash, language, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [u.id, u.organisationId, u.username, u.email, u.role, u.passwordHash, u.state, u.invitationTokenHash, u.language, u.createdAt],
  );
};
