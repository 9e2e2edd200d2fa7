// "One tile or lane per device; pinned devices come first (pins are stored locally in the browser)." (scheduling seed §2)

/** Pinned lanes first, each group keeping the order it came in (stable), so pinning never shuffles the rest. */
export function orderPinnedFirst<T>(lanes: readonly T[], pinned: ReadonlySet<string>, keyOf: (lane: T) => string): T[] {
  const first: T[] = [];
  const rest: T[] = [];
  for (const lane of lanes) (pinned.has(keyOf(lane)) ? first : rest).push(lane);
  return [...first, ...rest];
}

/** Pin or unpin one device; returns the new pin list (order of pinning kept). */
export function togglePin(pins: readonly string[], deviceSn: string): string[] {
  return pins.includes(deviceSn) ? pins.filter((p) => p !== deviceSn) : [...pins, deviceSn];
}
