import type { Role } from "../../../core/model/enums.ts";
import type { Queryable } from "../db/database.ts";
import { hashPassword } from "../auth/password.ts";
import { newId } from "../store/ids.ts";
import { insertUser } from "../store/users.ts";

/** A demo organisation and its active accounts (one password for all, each hash with its own salt), created at
 * `createdAt`; returns its id. */
export async function insertDemoOrganisation(
  tx: Queryable,
  organisation: { readonly name: string; readonly multiTests: boolean; readonly market: string; readonly country: string },
  users: ReadonlyArray<{ readonly username: string; readonly email: string; readonly role: Role }>,
  password: string,
  createdAt: string,
): Promise<string> {
  const org = newId();
  await tx.query("insert into organisations (id, name, multi_tests, market, country, created_at) values ($1, $2, $3, $4, $5, $6)", [
    org,
    organisation.name,
    organisation.multiTests,
    organisation.market,
    organisation.country,
    createdAt,
  ]);
  // The hashes (scrypt, tens of milliseconds each) are made side by side on libuv's threads, not one after another.
  const hashes = await Promise.all(users.map(() => hashPassword(password)));
  for (const [i, u] of users.entries())
    await insertUser(tx, {
      id: newId(),
      organisationId: org,
      username: u.username,
      email: u.email,
      role: u.role,
      passwordHash: hashes[i]!,
      state: "active",
      invitationTokenHash: null,
      language: "en",
      createdAt,
    });
  return org;
}
