import type { Queryable } from "../db/database.ts";
import { log } from "../log.ts";
import { CHAIN_COLUMNS, CHAIN_START_ACTION, type ChainBreak, type ChainRow, chainInOrder, parseBefore, toChainRow, walk } from "./chain.ts";

// Checking the audit chain (issue 33 §3): the whole of it (`isopter audit verify`, verify-main.ts) or its last entries
// (the server at start, which then says so on /api/ready).

export interface ChainReport {
  /** Entries of the chain checked before the first break (all of them when it holds). */
  readonly entries: number;
  /** Entries from before the chain began (migration 016), which the chain's start counts. */
  readonly beforeChain: number;
  /** The last entry that held: its place and hash, to note down and compare with later. */
  readonly tail: { readonly id: number; readonly seq: number; readonly hash: string } | null;
  readonly broken: ChainBreak | null;
}

const tailOf = (r: ChainRow | undefined) => (r ? { id: r.id, seq: r.seq!, hash: r.hash! } : null);

/** The first entry without a place in the chain written after `afterId` (inserted bypassing the trail). */
const unchainedAfter = async (q: Queryable, afterId: number): Promise<ChainBreak | null> => {
  const row = (await q.query(`select ${CHAIN_COLUMNS} from audit_events where seq is null and id > $1 order by id limit 1`, [afterId]))[0];
  if (!row) return null;
  const r = toChainRow(row);
  return { kind: "inserted", id: r.id, seq: null, message: `entry ${r.id} was inserted outside the trail: it has no place in the chain` };
};

/** Walks the whole chain from its start, then the entries from before it against the start's count. */
export const verifyChain = async (q: Queryable): Promise<ChainReport> => {
  const walked = await walk(chainInOrder(q), "genesis");
  const counted = async (lastId: number) =>
    Number((await q.query<{ n: string }>("select count(*) as n from audit_events where seq is null and id <= $1", [lastId]))[0]!.n);
  if (walked.broken) {
    const before = parseBefore(walked.firstRow?.fields.record_id ?? null);
    return {
      entries: walked.checked,
      beforeChain: before ? await counted(before.lastId) : 0,
      tail: tailOf(walked.last),
      broken: walked.broken,
    };
  }
  const start = walked.firstRow;
  if (!start) {
    // No chain yet (no event written since migration 016): every entry is from before it.
    const n = Number((await q.query<{ n: string }>("select count(*) as n from audit_events"))[0]!.n);
    return { entries: 0, beforeChain: n, tail: null, broken: null };
  }
  const before = start.fields.action === CHAIN_START_ACTION ? parseBefore(start.fields.record_id) : null;
  if (!before)
    return {
      entries: walked.checked,
      beforeChain: 0,
      tail: tailOf(walked.last),
      broken: { kind: "changed", id: start.id, seq: start.seq, message: `entry ${start.id} (position 0) is not the chain's start entry` },
    };
  const beforeChain = await counted(before.lastId);
  const tail = tailOf(walked.last);
  if (beforeChain !== before.count) {
    const kind = beforeChain < before.count ? "removed" : "inserted";
    const n = Math.abs(before.count - beforeChain);
    return {
      entries: walked.checked,
      beforeChain,
      tail,
      broken: {
        kind,
        id: start.id,
        seq: 0,
        message: `${n} of the entries from before the chain ${n === 1 ? "was" : "were"} ${kind}: the chain's start (entry ${start.id}) counts ${before.count} up to id ${before.lastId}, there are ${beforeChain}`,
      },
    };
  }
  return { entries: walked.checked, beforeChain, tail, broken: await unchainedAfter(q, before.lastId) };
};

/**
 * A tail noted down earlier (`position:hash`, as verify prints it) must still be there with that hash: the chain alone
 * cannot show its last entries removed together, a noted tail can.
 */
export const checkNotedTail = async (q: Queryable, noted: string): Promise<ChainBreak | null> => {
  const m = /^(\d+):([0-9a-f]{64})$/.exec(noted.trim());
  if (!m) throw new Error(`a noted tail is position:hash (64 hex digits), got '${noted}'`);
  const seq = Number(m[1]);
  const row = (await q.query(`select ${CHAIN_COLUMNS} from audit_events where seq = $1 order by id limit 1`, [seq]))[0];
  if (!row) return { kind: "removed", id: 0, seq, message: `the noted entry at position ${seq} and those after it were removed` };
  const r = toChainRow(row);
  return r.hash === m[2]
    ? null
    : { kind: "changed", id: r.id, seq, message: `entry ${r.id} (position ${seq}) no longer has the noted hash` };
};

/** How many of the last entries the server checks at start: a few milliseconds of reading. */
export const TAIL_CHECKED = 1_000;

/** The chain's last `n` entries, checked among themselves, and nothing unchained written after the first of them. */
export const checkChainTail = async (q: Queryable, n = TAIL_CHECKED): Promise<{ entries: number; broken: ChainBreak | null }> => {
  const rows = (await q.query(`select ${CHAIN_COLUMNS} from audit_events where seq is not null order by seq desc, id desc limit ${n}`))
    .map(toChainRow)
    .reverse();
  async function* inOrder() {
    yield* rows;
  }
  const walked = await walk(inOrder(), rows[0]?.seq === 0 ? "genesis" : "window");
  if (walked.broken) return { entries: walked.checked, broken: walked.broken };
  return { entries: walked.checked, broken: rows[0] ? await unchainedAfter(q, rows[0].id) : null };
};

/** The start check: a break is logged and becomes a warning on /api/ready (the server still serves: the trail is
 * evidence to keep, not a reason to stop the clinic). */
export const chainWarnings = async (q: Queryable): Promise<string[]> => {
  try {
    const { entries, broken } = await checkChainTail(q);
    if (!broken) return [];
    log.error("audit_chain_broken", {
      kind: broken.kind,
      entry: broken.id,
      position: broken.seq,
      detail: broken.message,
      checked: entries,
    });
    return [`audit trail: ${broken.message} (run isopter audit verify for the whole chain)`];
  } catch (e) {
    log.error("audit_chain_check_failed", { error: e });
    return [`audit trail: its chain could not be checked (${(e as Error).message.split("\n")[0]})`];
  }
};
