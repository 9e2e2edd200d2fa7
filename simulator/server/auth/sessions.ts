import { randomBytes } from "node:crypto";
import type { Database, Queryable } from "../db/database.ts";
import { toUserRow, type UserRow } from "../store/users.ts";

// Server-side sessions (issue 15 §2): every access token carries the id of a session row; a token is good only while
// its session is open. Logout ends that session, a new login ends the user's others ("another session opened"), a
// password change or reset, a role change and a deletion end them all. Tokens still expire and renew as the seeds
// say (sliding, a fresh one on every answer); the session only decides whether they still count.
//
// Lookups are kept for a moment per session id and dropped by every end made in this process, so an end takes effect
// on the very next call here (another process on the same database sees it within HOLD_MS).

export type SessionEnd = "logout" | "another_session_opened" | "password_changed" | "password_reset" | "role_changed" | "user_deleted";

export type SessionCheck = { open: true; user: UserRow } | { open: false; ended: SessionEnd | "unknown" };

const HOLD_MS = 1_000;

export const newSessionId = () => randomBytes(16).toString("base64url");

export const sessionStore = (db: Database) => {
  const held = new Map<string, { check: SessionCheck; userId: string | undefined; until: number }>();
  const drop = (userId: string) => {
    for (const [sid, h] of held) if (h.userId === userId) held.delete(sid);
  };
  return {
    /** Opens a session for the user and ends every other open one of theirs (another session opened), in one transaction. */
    async start(user: UserRow, address: string, nowIso: string): Promise<{ sid: string; ended: string[] }> {
      const sid = newSessionId();
      const ended = await db.transaction(async (tx) => {
        const rows = await tx.query<{ id: string }>(
          "update sessions set ended_at = $2, end_reason = 'another_session_opened' where user_id = $1 and ended_at is null returning id",
          [user.id, nowIso],
        );
        await tx.query("insert into sessions (id, user_id, organisation_id, address, created_at) values ($1, $2, $3, $4, $5)", [
          sid,
          user.id,
          user.organisationId,
          address,
          nowIso,
        ]);
        return rows.map((r) => r.id);
      });
      drop(user.id);
      return { sid, ended };
    },
    /** Whether the session is open, with its user as stored now (role, state). */
    async check(sid: string, nowMs: number): Promise<SessionCheck> {
      const hit = held.get(sid);
      if (hit && hit.until > nowMs) return hit.check;
      const rows = await db.query(
        "select u.*, s.ended_at as s_ended_at, s.end_reason as s_end_reason from sessions s join users u on u.id = s.user_id where s.id = $1",
        [sid],
      );
      const row = rows[0];
      const check: SessionCheck = !row
        ? { open: false, ended: "unknown" }
        : row.s_ended_at !== null
          ? { open: false, ended: row.s_end_reason as SessionEnd }
          : { open: true, user: toUserRow(row) };
      held.set(sid, { check, userId: row?.id as string | undefined, until: nowMs + HOLD_MS });
      if (held.size > 10_000) held.clear();
      return check;
    },
    /** Ends one session (logout). */
    async endOne(q: Queryable, sid: string, reason: SessionEnd, nowIso: string): Promise<void> {
      const rows = await q.query<{ user_id: string }>(
        "update sessions set ended_at = $2, end_reason = $3 where id = $1 and ended_at is null returning user_id",
        [sid, nowIso, reason],
      );
      held.delete(sid);
      if (rows[0]) drop(rows[0].user_id);
    },
    /** Ends every open session of the user, but `keep`; inside the caller's transaction when given one. */
    async endAll(q: Queryable, userId: string, reason: SessionEnd, nowIso: string, keep?: string): Promise<void> {
      await q.query("update sessions set ended_at = $2, end_reason = $3 where user_id = $1 and ended_at is null and id <> $4", [
        userId,
        nowIso,
        reason,
        keep ?? "",
      ]);
      drop(userId);
    },
    /** Drops what is held about the user (after a write to their row or sessions). */
    forget: drop,
  };
};

export type SessionStore = ReturnType<typeof sessionStore>;
