// Performance marks of the result side (read by bench/results.bench.ts; visible in any browser profile):
// RESULTS_DATA_MARK when a patient's measurements reach the result side, RESULTS_DRAWN_MARK once every plot mounted
// since then has drawn its Konva layer. Plots register while they wait (also while Konva itself is still loading) and
// release when their layer fires "draw"; the drawn mark falls when none waits. Plots that mount later (history cells
// scrolled near) do not delay it.

export const RESULTS_DATA_MARK = "isopter:results:data";
export const RESULTS_DRAWN_MARK = "isopter:results:drawn";

let pending = 0;
let waiting = false;

const mark = (name: string) => {
  if (typeof performance !== "undefined" && typeof performance.mark === "function") performance.mark(name);
};

/** The measurements arrived: the next time no plot waits for its draw, the page is drawn. */
export function markResultsData(): void {
  mark(RESULTS_DATA_MARK);
  waiting = true;
}

/** Sets the drawn mark if data arrived and no plot waits (called after a commit has registered its plots). */
export function settleResultsDrawn(): void {
  if (!waiting || pending > 0) return;
  waiting = false;
  mark(RESULTS_DRAWN_MARK);
}

/** A plot waits for its draw; call the returned function (once, later calls do nothing) when it has drawn or unmounted. */
export function expectDraw(): () => void {
  pending++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pending--;
    // After the current commit: a plot unmounting in a commit that mounts others must not settle before they register.
    queueMicrotask(settleResultsDrawn);
  };
}

/** Plots still waiting (tests). */
export const pendingDraws = (): number => pending;
