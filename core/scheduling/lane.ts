// A lane is one device's queue of cards, leftmost runs next (scheduling seed §2 "Technician view").
// Scheduling works on the few fields it needs, so the same planner serves measurement and appointment lanes.

/** A queued card. isFollowingEye is the id of the paired other-eye measurement (scheduling seed §3). */
export interface Card {
  readonly id: string;
  readonly isFollowingEye?: string | null | undefined;
}

export interface Lane<C extends Card = Card> {
  readonly deviceId: string;
  /** Device revision, sent back with a drag so the server can detect conflicts. */
  readonly revision?: number | undefined;
  /** True when a test runs on the device; then the first card is the running item. */
  readonly running: boolean;
  readonly items: readonly C[];
}

/** Two cards are linked when either names the other as its other-eye measurement. */
export const areLinked = (a: Card, b: Card): boolean =>
  (a.isFollowingEye != null && a.isFollowingEye === b.id) || (b.isFollowingEye != null && b.isFollowingEye === a.id);

/** Index of the card linked to items[index] when it sits right beside it, else undefined. */
export function adjacentPartnerIndex(items: readonly Card[], index: number): number | undefined {
  const card = items[index];
  if (card === undefined) return undefined;
  const before = items[index - 1];
  if (before !== undefined && areLinked(before, card)) return index - 1;
  const after = items[index + 1];
  if (after !== undefined && areLinked(card, after)) return index + 1;
  return undefined;
}

/** The indices that move together when items[index] is dragged: the card and its adjacent partner, in lane order. */
export function blockAt(items: readonly Card[], index: number): readonly number[] {
  const partner = adjacentPartnerIndex(items, index);
  if (partner === undefined) return [index];
  return partner < index ? [partner, index] : [index, partner];
}

/** "Cards are not droppable between linked perimetry cards": a gap at `gap` lies between items[gap-1] and items[gap]. */
export function isGapBetweenLinked(items: readonly Card[], gap: number): boolean {
  const before = items[gap - 1];
  const after = items[gap];
  return before !== undefined && after !== undefined && areLinked(before, after);
}
