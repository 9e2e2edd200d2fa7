// A transient message for the user. Core names the English text; the web translates it (Lingui) and shows it.

export type NoticeKind = "success" | "error" | "info" | "warning";

export interface NoticeAction {
  /** What the action does, e.g. open a patient's result. The UI maps it to a route. */
  readonly kind: "open-result" | "open-bin" | "open-item";
  readonly label: string;
  readonly patientId?: string | undefined;
  readonly measurementId?: string | undefined;
  readonly itemId?: string | undefined;
  /** For open-result: which test the result is of, and whether it is an examination's (appointment variant) rather
   * than a measurement's, so the UI opens the page that shows it (core/client resultRoute). */
  readonly testType?: "perimetry" | "amsler" | "acuity" | "color-blindness" | undefined;
  readonly examination?: boolean | undefined;
}

export interface Notice {
  readonly kind: NoticeKind;
  readonly title: string;
  readonly hint?: string | undefined;
  /** Auto-dismiss after this many ms. */
  readonly durationMs: number;
  readonly action?: NoticeAction | undefined;
}

/** "Notification auto-dismiss 5 s by default" (scheduling seed §9). */
export const DEFAULT_NOTICE_MS = 5_000;
