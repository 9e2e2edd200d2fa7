import { type CorrelationTable, INTERPOLATED_LIMIT, STRIDE } from "./poplr-table.ts";
import { WASM_BASE64 } from "./poplr-sieve.wasm.ts";

/**
 * PoPLR's sieve over the permutations (see poplr.ts's sievedRanks), run in WebAssembly SIMD (poplr-sieve.wat): each
 * order's dates times every location's centred values, four locations at a time, then each location's terms read at
 * the nearest point of poplr-table.ts's grid. It was the whole of PoPLR's cost in JavaScript (3.6 ms per eye of 10
 * visits, with interpolation); here two locations share each multiplication and load. The few orders the nearest
 * reading leaves undecided (about 7 in 5040) are read again with interpolation (`interpolated`), and the few of those left
 * are computed exactly by poplr.ts.
 *
 * The module is tiny (under 1 kB), so it is compiled synchronously, which browsers allow on the main thread. Where
 * WebAssembly or its SIMD is missing, `sieveFlags` returns null and poplr.ts counts exhaustively (same p-values, slower).
 */

/** A flag per order (index 0, the observed order, unused). */
export const LEFT_BELOW = 1;
export const RIGHT_BELOW = 2;
/** Within the summed error limits of either observed statistic: the order must be read again. */
export const UNDECIDED = 4;

export interface SieveTask {
  readonly perms: readonly (readonly number[])[];
  readonly years: readonly number[];
  /** Varying locations' values minus their means, location after location, `years.length` each. */
  readonly centred: Float64Array;
  /** Per varying location, the factor taking c = sum x y to its grid position (half / sqrt(SSx SSy)). */
  readonly toGrid: Float64Array;
  readonly table: CorrelationTable;
  /** The grid key of `table` (its degrees of freedom and clip), so it is copied in once. */
  readonly tableKey: string;
  /** What the invariant locations add to every order's statistics. */
  readonly constantLeft: number;
  readonly constantRight: number;
  readonly observedLeft: number;
  readonly observedRight: number;
}

interface Kernel {
  readonly memory: WebAssembly.Memory;
  readonly sieve: (...args: number[]) => void;
}

let kernel: Kernel | null | undefined;
function loadKernel(): Kernel | null {
  if (kernel !== undefined) return kernel;
  try {
    const bytes = Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    kernel = instance.exports as unknown as Kernel;
  } catch {
    kernel = null;
  }
  return kernel;
}

/** What is in the module's memory already: the table (by key) and the orders' dates (by order list and dates). */
let loadedTable: string | null = null;
let loadedDates: { perms: readonly (readonly number[])[]; key: string } | null = null;

const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

/** Each order's flags (LEFT_BELOW | RIGHT_BELOW, or UNDECIDED), or null without WebAssembly SIMD. */
export function sieveFlags(task: SieveTask): Uint8Array | null {
  const k = loadKernel();
  if (k === null) return null;
  const { perms, years, table } = task;
  const n = years.length;
  const visits = n + (n % 2); // the kernel takes two visits a turn
  const m = task.toGrid.length;
  const quads = Math.ceil(m / 4);
  const orders = perms.length;
  // Layout: table, dates, centred values, grid factors, flags.
  const tableAt = 0;
  const datesAt = align(table.points.byteLength);
  const yAt = align(datesAt + orders * visits * 8);
  const gridAt = align(yAt + quads * visits * 32);
  const flagsAt = align(gridAt + quads * 32);
  const needed = flagsAt + orders;
  const pages = Math.ceil(needed / 65536) - k.memory.buffer.byteLength / 65536;
  if (pages > 0) k.memory.grow(pages);
  const f64 = new Float64Array(k.memory.buffer);

  if (loadedTable !== task.tableKey) {
    f64.set(table.points, tableAt / 8);
    loadedTable = task.tableKey;
  }
  const datesKey = `${visits}:${years.join(",")}`;
  if (loadedDates?.perms !== perms || loadedDates.key !== datesKey) {
    const at = datesAt / 8;
    for (let q = 0; q < orders; q++) for (let v = 0; v < visits; v++) f64[at + q * visits + v] = v < n ? years[perms[q]![v]!]! : 0;
    loadedDates = { perms, key: datesKey };
  }
  // Four locations after four, visit after visit, their four values side by side; padding locations are all zeros.
  f64.fill(0, yAt / 8, flagsAt / 8);
  for (let u = 0; u < m; u++) {
    const quad = u >> 2,
      lane = u & 3;
    for (let v = 0; v < n; v++) f64[yAt / 8 + (quad * visits + v) * 4 + lane] = task.centred[u * n + v]!;
    f64[gridAt / 8 + quad * 4 + lane] = task.toGrid[u]!;
  }
  // A padding location (grid factor 0) lands on r = 0 exactly, the middle point: its terms are taken off again here.
  const half = table.intervals / 2;
  const padding = quads * 4 - m;
  const constantLeft = task.constantLeft - padding * table.points[STRIDE * half]!;
  const constantRight = task.constantRight - padding * table.points[STRIDE * half + 1]!;
  k.sieve(
    orders,
    visits,
    quads,
    datesAt,
    yAt,
    gridAt,
    tableAt,
    flagsAt,
    half,
    table.intervals,
    constantLeft,
    constantRight,
    task.observedLeft,
    task.observedRight,
  );
  return new Uint8Array(k.memory.buffer, flagsAt, orders);
}

/** An order's statistics from the table with linear interpolation, and the summed limits of that reading. */
export function interpolated(task: SieveTask, perm: readonly number[]): { left: number; right: number; band: number } {
  const { years, centred, toGrid, table } = task;
  const points = table.points,
    half = table.intervals / 2,
    n = years.length;
  let left = task.constantLeft,
    right = task.constantRight,
    band = 0;
  for (let u = 0; u < toGrid.length; u++) {
    let c = 0;
    for (let v = 0; v < n; v++) c += years[perm[v]!]! * centred[u * n + v]!;
    // Where on the grid r falls, kept on it (rounding can take |r| a hair past 1).
    const at = Math.min(table.intervals, Math.max(0, c * toGrid[u]! + half));
    const i = Math.floor(at),
      w = at - i,
      p = STRIDE * i;
    left += points[p]! + w * points[p + 2]!;
    right += points[p + 1]! + w * points[p + 3]!;
    band += points[p + INTERPOLATED_LIMIT]!;
  }
  return { left, right, band };
}
