import { blockAt, isGapBetweenLinked, type Card, type Lane } from "./lane.ts";
import type { Notice } from "./notice.ts";

// Planning a drag of one card within a lane or to another lane (scheduling seed §4 "Drag and drop of measurements").
// Indices follow the drag library's convention: destination.index is where the dragged card ends up in the destination
// list, counted without the dragged card when source and destination are the same lane.

export interface DropLocation {
  readonly deviceId: string;
  readonly index: number;
}

export interface Drop {
  readonly source: DropLocation;
  /** Null when the card was dropped outside any lane. */
  readonly destination: DropLocation | null | undefined;
}

/** "cannot drop here' (3 s) and a hint"; the hint text is the drop dialog's 'no items between linked cards' (§8). */
export const CANNOT_DROP_NOTICE: Notice = {
  kind: "error",
  title: "cannot drop here",
  hint: "no items between linked cards",
  durationMs: 3_000,
};

export type IgnoreReason = "no-destination" | "same-place" | "unknown-lane" | "unknown-card" | "running-item";

export type DropPlan<C extends Card> =
  | { readonly outcome: "ignored"; readonly reason: IgnoreReason }
  | { readonly outcome: "refused"; readonly notice: Notice }
  | {
      readonly outcome: "moved";
      /** The dragged card (its partner, if any, moved with it). */
      readonly movedId: string;
      /** Source and destination lanes before the move (their revisions go into the request). */
      readonly before: { readonly from: Lane<C>; readonly to: Lane<C> };
      /** The same lanes after the move: the optimistic order. Equal objects when the drag stays in one lane. */
      readonly after: { readonly from: Lane<C>; readonly to: Lane<C> };
    };

/**
 * Plans a drop. Rules (scheduling seed §4):
 * - "Drops where destination equals source are ignored."
 * - "A measurement paired with another-eye one moves together with it."
 * - "Cards are not droppable between linked perimetry cards" -> refused with CANNOT_DROP_NOTICE.
 * - "If a test is running on the target device the target index shifts by one so the running item stays first":
 *   past the running item and its other-eye partner, which stay first together.
 * The running item itself (first card of a running lane, with its partner) does not move.
 */
export function planDrop<C extends Card>(lanes: readonly Lane<C>[], drop: Drop): DropPlan<C> {
  const { source, destination } = drop;
  if (destination == null) return { outcome: "ignored", reason: "no-destination" };
  const sameLane = source.deviceId === destination.deviceId;
  if (sameLane && source.index === destination.index) return { outcome: "ignored", reason: "same-place" };
  const from = lanes.find((l) => l.deviceId === source.deviceId);
  const to = lanes.find((l) => l.deviceId === destination.deviceId);
  if (from === undefined || to === undefined) return { outcome: "ignored", reason: "unknown-lane" };
  const card = from.items[source.index];
  if (card === undefined) return { outcome: "ignored", reason: "unknown-card" };

  const block = blockAt(from.items, source.index);
  if (from.running && block.includes(0)) return { outcome: "ignored", reason: "running-item" };
  const moving = block.map((i) => from.items[i]!);
  const movingIds = new Set(moving.map((c) => c.id));

  // The list the drag library indexed, and the same list without the whole moving block.
  const indexed = sameLane ? from.items.filter((_, i) => i !== source.index) : to.items;
  const rest = indexed.filter((c) => !movingIds.has(c.id));
  const landing = Math.max(0, Math.min(destination.index, indexed.length));
  let gap = indexed.slice(0, landing).filter((c) => !movingIds.has(c.id)).length;
  if (to.running) gap = runningTargetIndex(rest, gap);

  if (isGapBetweenLinked(rest, gap)) return { outcome: "refused", notice: CANNOT_DROP_NOTICE };

  const toItems = [...rest.slice(0, gap), ...moving, ...rest.slice(gap)];
  if (sameLane) {
    if (toItems.every((c, i) => c.id === from.items[i]!.id)) return { outcome: "ignored", reason: "same-place" };
    const lane = { ...from, items: toItems };
    return { outcome: "moved", movedId: card.id, before: { from, to: from }, after: { from: lane, to: lane } };
  }
  const fromItems = from.items.filter((c) => !movingIds.has(c.id));
  return {
    outcome: "moved",
    movedId: card.id,
    before: { from, to },
    after: { from: { ...from, items: fromItems }, to: { ...to, items: toItems } },
  };
}

/**
 * "If a test is running on the target device the target index shifts by one so the running item stays first."
 * `items` is the running lane without the dragged cards. The running item's other-eye partner stays beside it ("A
 * measurement paired with another-eye one moves together with it"), so a drop in front lands after the pair, not
 * between it (which would be refused).
 */
export function runningTargetIndex(items: readonly Card[], index: number): number {
  if (index > 0 || items.length === 0) return index;
  return blockAt(items, 0).length;
}

/** The lanes with a plan's optimistic order applied (other lanes untouched). */
export function applyDropPlan<C extends Card>(lanes: readonly Lane<C>[], plan: DropPlan<C>): Lane<C>[] {
  if (plan.outcome !== "moved") return [...lanes];
  return lanes.map((l) =>
    l.deviceId === plan.after.from.deviceId ? plan.after.from : l.deviceId === plan.after.to.deviceId ? plan.after.to : l,
  );
}
