// The three ways a live event changes a cached list: "insert or restore adds; update replaces; trash or delete removes".

interface WithId {
  readonly id: string;
}

/** Adds the item, or replaces it when the list has it already (a repeated insert must not duplicate a card). */
export const addItem = <T extends WithId>(list: readonly T[], item: T): readonly T[] =>
  list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];

/** Replaces the item where the list has it; a list without it is returned unchanged (same reference). */
export const replaceItem = <T extends WithId>(list: readonly T[], item: T): readonly T[] =>
  list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : list;

/** Removes the item by id; unchanged (same reference) when absent. */
export const removeItem = <T extends WithId>(list: readonly T[], id: string): readonly T[] =>
  list.some((x) => x.id === id) ? list.filter((x) => x.id !== id) : list;
