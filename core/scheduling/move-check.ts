import { areLinked, blockAt, type Card, type Lane } from "./lane.ts";

// The server's side of a drag (scheduling seed §4 "Drag and drop of measurements", §7 drag_and_drop_perimetry and
// drag_and_drop_appointment): is the pair of new lane orders a client sent one move of one card from the lanes as they
// are? The same rules planDrop plans with, checked on the result:
// - across lanes, the source loses only the moved card, or the moved card with its adjacent other-eye partner ("A
//   measurement paired with another-eye one moves together with it"), the others keeping their order; the target gains
//   exactly that block, in one piece, its own cards keeping their order;
// - within one lane, the same cards in any order;
// - "the running item stays first" (with its adjacent partner), and a pair that sat side by side still does ("Cards are
//   not droppable between linked perimetry cards").

/** Which part of the request is wrong: the moved id, or the new order of the source lane (the request's `from`) or of
 * the target lane (its `to`). */
export type MoveField = "moved" | "source" | "target";

export type MoveCheck = { readonly ok: true } | { readonly ok: false; readonly field: MoveField; readonly reason: string };

export interface MoveRequest {
  readonly movedId: string;
  /** The new orders the client sent; for a drag within one lane both name that lane and carry the same order. */
  readonly from: readonly string[];
  readonly to: readonly string[];
}

const refuse = (field: MoveField, reason: string): MoveCheck => ({ ok: false, field, reason });
const OK: MoveCheck = { ok: true };

const sameOrder = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const hasDuplicates = (ids: readonly string[]) => new Set(ids).size !== ids.length;

/** The cards a lane must keep at its front: the running item and its adjacent partner. */
const runningBlock = (lane: Lane): string[] =>
  lane.running && lane.items.length > 0 ? blockAt(lane.items, 0).map((i) => lane.items[i]!.id) : [];

/** Pairs side by side in `lane` that are no longer side by side in `after` (when both are still in it). */
const splitPair = (lane: Lane, after: readonly string[]): boolean => {
  for (let i = 0; i + 1 < lane.items.length; i++) {
    const a = lane.items[i]!;
    const b = lane.items[i + 1]!;
    if (!areLinked(a, b)) continue;
    const ia = after.indexOf(a.id);
    const ib = after.indexOf(b.id);
    if (ia >= 0 && ib >= 0 && Math.abs(ia - ib) !== 1) return true;
  }
  return false;
};

const keepsFront = (lane: Lane, after: readonly string[], field: MoveField): MoveCheck | undefined => {
  const front = runningBlock(lane);
  if (front.length > 0 && !sameOrder(after.slice(0, front.length), front))
    return refuse(field, "A test is running on this device: its running item stays first");
  return undefined;
};

/**
 * Checks a drag against the lanes as they are now (`before`, with running flags and other-eye links). A request that
 * planDrop could have produced from these lanes passes; anything else names the part that is wrong.
 */
export function checkMove<C extends Card>(before: { readonly from: Lane<C>; readonly to: Lane<C> }, request: MoveRequest): MoveCheck {
  const { from, to } = before;
  const { movedId } = request;
  const index = from.items.findIndex((c) => c.id === movedId);
  if (index < 0) return refuse("moved", "The moved card is not in the source lane");

  if (from.deviceId === to.deviceId) {
    const ids = from.items.map((c) => c.id);
    const order = request.to;
    if (hasDuplicates(order) || order.length !== ids.length || !ids.every((id) => order.includes(id)))
      return refuse("target", "A move within one lane keeps the same cards; only their order changes");
    if (!sameOrder(request.from, order)) return refuse("source", "A move within one lane sends the same order for both sides");
    const front = keepsFront(from, order, "target");
    if (front) return front;
    if (splitPair(from, order)) return refuse("target", "Cards are not droppable between linked cards");
    return OK;
  }

  const block = blockAt(from.items, index).map((i) => from.items[i]!.id);
  const fromIds = from.items.map((c) => c.id);
  const toIds = to.items.map((c) => c.id);
  if (
    hasDuplicates(request.from) ||
    !sameOrder(
      request.from,
      fromIds.filter((id) => !block.includes(id)),
    )
  )
    return refuse(
      "source",
      block.length > 1
        ? "The source lane loses only the moved card and its other-eye partner; the others keep their order"
        : "The source lane loses only the moved card; the others keep their order",
    );
  const start = request.to.indexOf(block[0]!);
  if (hasDuplicates(request.to) || start < 0 || !sameOrder(request.to.slice(start, start + block.length), block))
    return refuse("target", "The target lane gains the moved card (with its other-eye partner) in one piece");
  const rest = [...request.to.slice(0, start), ...request.to.slice(start + block.length)];
  if (!sameOrder(rest, toIds)) return refuse("target", "The target lane gains only the moved card; its own cards keep their order");
  const front = keepsFront(from, request.from, "source") ?? keepsFront(to, request.to, "target");
  if (front) return front;
  if (splitPair(to, request.to)) return refuse("target", "Cards are not droppable between linked cards");
  return OK;
}
