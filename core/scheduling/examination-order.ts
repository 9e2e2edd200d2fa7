import type { Notice } from "./notice.ts";

// Reordering the examinations of an appointment in its side panel (scheduling seed §4 "Examination reorder").

/** "Dragging is disabled with a single examination." */
export const canReorderExaminations = (examinationIds: readonly string[]): boolean => examinationIds.length > 1;

/** "On failure: notice 'Examination couldn't be reordered / Please try again'" (5 s default duration). */
export const REORDER_FAILED_NOTICE: Notice = {
  kind: "error",
  title: "Examination couldn't be reordered",
  hint: "Please try again",
  durationMs: 5_000,
};

/** "a 500 ms wiggle, then revert" */
export const REORDER_WIGGLE_MS = 500;

/**
 * The optimistic order after moving the examination at `from` to `to` (final index). Undefined when nothing changes
 * (same place, out of range, or a single examination), so no request is sent.
 */
export function reorderExaminations(examinationIds: readonly string[], from: number, to: number): string[] | undefined {
  if (!canReorderExaminations(examinationIds)) return undefined;
  if (from === to || from < 0 || from >= examinationIds.length) return undefined;
  const next = examinationIds.filter((_, i) => i !== from);
  const target = Math.max(0, Math.min(to, next.length));
  next.splice(target, 0, examinationIds[from]!);
  return next;
}
