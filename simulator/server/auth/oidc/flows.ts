import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../../db/database.ts";

// The sign-ins under way (sso_flows, migration 019): one row per authorization request, found by its state's hash.
// A flow is used once: taking it marks it used in the same transaction that reads it, so a replayed callback (or two
// racing ones) finds it used. It lives FLOW_TTL_MS, long enough to type a password and a second factor at the
// provider. Our choice where the RFCs leave it open (RFC 6749 §10.12 asks only that state be bound to the user agent):
// the binding is a random value the beginning browser keeps and sends back with the callback.

export const FLOW_TTL_MS = 10 * 60_000;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

export interface Flow {
  readonly organisationId: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly redirectUri: string;
}

export type TakeRefusal = "state_unknown" | "state_replayed" | "state_expired" | "binding";

export const ssoFlows = (db: Database) => ({
  /** Stores a new flow; answers the binding for the browser. */
  async open(flow: Flow, nowMs: number): Promise<string> {
    const binding = randomBytes(24).toString("base64url");
    await db.transaction(async (tx) => {
      await tx.query("delete from sso_flows where expires_at < $1", [nowMs - FLOW_TTL_MS]);
      await tx.query(
        `insert into sso_flows (state_hash, organisation_id, nonce, code_verifier, binding_hash, redirect_uri, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [sha256(flow.state), flow.organisationId, flow.nonce, flow.codeVerifier, sha256(binding), flow.redirectUri, nowMs + FLOW_TTL_MS],
      );
    });
    return binding;
  },
  /** Takes the flow of this state for good; a refusal says why it cannot be used (and the organisation when known). */
  async take(
    state: string,
    binding: string,
    nowMs: number,
  ): Promise<{ ok: true; flow: Flow } | { ok: false; reason: TakeRefusal; organisationId: string | null }> {
    return db.transaction(async (tx) => {
      const r = (await tx.query("select * from sso_flows where state_hash = $1 for update", [sha256(state)]))[0];
      if (!r) return { ok: false as const, reason: "state_unknown" as const, organisationId: null };
      await tx.query("update sso_flows set used_at = $2 where state_hash = $1", [sha256(state), new Date(nowMs).toISOString()]);
      const organisationId = r.organisation_id as string;
      if (r.used_at !== null) return { ok: false as const, reason: "state_replayed" as const, organisationId };
      if (Number(r.expires_at) < nowMs) return { ok: false as const, reason: "state_expired" as const, organisationId };
      if (r.binding_hash !== sha256(binding)) return { ok: false as const, reason: "binding" as const, organisationId };
      return {
        ok: true as const,
        flow: {
          organisationId,
          state,
          nonce: r.nonce as string,
          codeVerifier: r.code_verifier as string,
          redirectUri: r.redirect_uri as string,
        },
      };
    });
  },
});
