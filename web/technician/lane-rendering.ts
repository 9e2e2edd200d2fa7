import { useCallback, useEffect, useRef, useState } from "react";

// A clinic's day can hold fifty lanes of twenty cards. Drawing every card before the first paint kept the technician
// waiting ~0.4 s (bench:technician), though a screen shows three or four lanes. So the lanes in view render at once
// with their cards; the others start as a header over a placeholder and fill in during idle time, a few lanes per
// step, or at once when scrolled near. A step is a plain update, not a transition: with fifty headsets streaming, live
// events would interrupt and restart a transition over and over, and its eventual forced render was the long frame.

/**
 * How tall a lane is at least, by what it holds: 318 px with measurement cards, 254 px with appointment cards (40
 * units high, not 56), 493 px and more beside a live panel (a running test), less when empty. As many lanes as these heights fill the window render with their cards in the first paint,
 * not one more (each is some 20 cards of render, style and layout before that paint). A lane found in view still a
 * placeholder fills at once (`watch`).
 */
export const LANE_MIN_PX = { cards: 300, appointments: 240, live: 480, empty: 150 } as const;
export type LaneSize = keyof typeof LANE_MIN_PX;

/** Lanes filled per idle step: one lane (~20 cards) keeps every step under a frame while headsets stream (bench:technician). */
const LANES_PER_STEP = 1;

const initialBudget = (sizes: readonly LaneSize[]) => {
  const height = typeof window === "undefined" ? 1080 : window.innerHeight;
  let covered = 0;
  let lanes = 0;
  while (covered < height && lanes < sizes.length) covered += LANE_MIN_PX[sizes[lanes++]!];
  return lanes;
};

const whenIdle = (run: () => void): (() => void) => {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(run, { timeout: 200 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 16);
  return () => clearTimeout(id);
};

export interface LaneRendering {
  /** Whether the lane at this place (pinned first, as drawn) renders its cards, or still a placeholder. */
  full(index: number, deviceId: string): boolean;
  /** Ref callback for a placeholder lane: it fills in as soon as it comes near the viewport. */
  watch(deviceId: string): (element: Element | null) => void;
}

/**
 * `reveal`: a lane that must render complete from the first paint (the target of ?scrollTo). `sizes`: what each lane
 * holds, in order, read once for the first paint's budget.
 */
export function useLaneRendering(laneCount: number, reveal: string | null, sizes: () => readonly LaneSize[]): LaneRendering {
  const [budget, setBudget] = useState(() => initialBudget(sizes()));
  const [near, setNear] = useState<ReadonlySet<string>>(() => new Set(reveal ? [reveal] : []));

  // Lanes near the window but not in it (IntersectionObserver's margin): filled first of all, in the next idle step.
  const soon = useRef(new Set<string>());
  const [soonCount, setSoonCount] = useState(0);

  // Idle filling, one step per commit, until every lane is full.
  // biome-ignore lint/correctness/useExhaustiveDependencies: soonCount stands for the contents of `soon`
  useEffect(() => {
    if (budget >= laneCount) return;
    return whenIdle(() => {
      const next = soon.current.values().next();
      if (next.done) return setBudget((b) => b + LANES_PER_STEP);
      soon.current.delete(next.value);
      setNear((s) => new Set([...s, next.value]));
    });
  }, [budget, laneCount, near, soonCount]);

  useEffect(() => {
    if (reveal) setNear((s) => (s.has(reveal) ? s : new Set([...s, reveal])));
  }, [reveal]);

  // Scrolled into the window: fill now (an urgent update, the technician is looking there). Near it only: first in
  // idle time (the first paint's neighbours waited for nothing else and delayed the next frame).
  const observer = useRef<IntersectionObserver | null>(null);
  const watched = useRef(new Map<Element, string>());
  useEffect(() => {
    if (typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver(
      (entries) => {
        const seen: string[] = [];
        let later = false;
        for (const e of entries) {
          const id = watched.current.get(e.target);
          if (!e.isIntersecting || id === undefined) continue;
          const r = e.boundingClientRect;
          if (r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth) seen.push(id);
          else if (!soon.current.has(id)) {
            soon.current.add(id);
            later = true;
          }
        }
        if (seen.length > 0) setNear((s) => new Set([...s, ...seen]));
        if (later) setSoonCount((n) => n + 1);
      },
      { rootMargin: "50% 0px" },
    );
    observer.current = io;
    for (const element of watched.current.keys()) io.observe(element);
    return () => io.disconnect();
  }, []);

  // One ref callback per lane, kept, so a lane's element is observed once, not again on every render.
  const refs = useRef(new Map<string, (element: Element | null) => void>());
  const watch = useCallback((deviceId: string) => {
    let ref = refs.current.get(deviceId);
    if (!ref) {
      let current: Element | null = null;
      ref = (element) => {
        if (current) {
          observer.current?.unobserve(current);
          watched.current.delete(current);
        }
        current = element;
        if (element) {
          watched.current.set(element, deviceId);
          observer.current?.observe(element);
        }
      };
      refs.current.set(deviceId, ref);
    }
    return ref;
  }, []);

  return { full: (index, deviceId) => index < budget || near.has(deviceId), watch };
}
