// Login attempts per client (remote address): at most `limit` failed attempts in a sliding window, then 429 until the
// window has passed. Successful logins do not count. In memory: a restart forgets, which is acceptable for a simulator.

export interface RateLimit {
  blocked(client: string, nowMs: number): boolean;
  fail(client: string, nowMs: number): void;
}

export const loginRateLimit = (limit: number, windowMs: number): RateLimit => {
  const failures = new Map<string, number[]>();
  const recent = (client: string, nowMs: number) => {
    const kept = (failures.get(client) ?? []).filter((t) => nowMs - t < windowMs);
    if (kept.length) failures.set(client, kept);
    else failures.delete(client);
    return kept;
  };
  return {
    blocked: (client, nowMs) => recent(client, nowMs).length >= limit,
    fail(client, nowMs) {
      failures.set(client, [...recent(client, nowMs), nowMs]);
    },
  };
};
