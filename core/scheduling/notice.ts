// A transient message for the user. Core names the English text; the web translates it (Lingui) and shows it.

export type NoticeKind = "success" | "error" | "info" | "warning";

export interface NoticeAction {
  /** What the action does, e.g. open a patient's result. The UI maps it to a route. */
  readonly kind: "open-result" | "open-bin" | "open-item";
  readonly label: string;
  readonly patientId?: string | undefined;
  readonly measurementId?: string | undefined;
  readonly itemId?: string | undefined;
  /** For open-bin (and an open-item of a trashed item): the bin tab that lists it (the bin route's children). */
  readonly bin?: "deleted-patients" | "deleted-measurements" | "deleted-appointments" | undefined;
  /** For open-result: which test the result is of, and whether it is an examination's (appointment variant) rather
   * than a measurement's, so the UI opens the page that shows it (core/client resultRoute). */
  readonly testType?: "perimetry" | "amsler" | "acuity" | "color-blindness" | undefined;
  readonly examination?: boolean | undefined;
}

/** Whose test a notice is about (the web names the patient, the test and the headset it ran on). */
export interface NoticeSubject {
  readonly patientId: string;
  /** The headset's serial; null when unknown. */
  readonly deviceSn: string | null;
  /** A measurement's display name; null for an examination (named by its test type). */
  readonly testName: string | null;
  readonly testType: "perimetry" | "amsler" | "acuity" | "color-blindness";
}

export interface Notice {
  readonly kind: NoticeKind;
  readonly title: string;
  readonly hint?: string | undefined;
  /** Auto-dismiss after this many ms. */
  readonly durationMs: number;
  readonly action?: NoticeAction | undefined;
  readonly subject?: NoticeSubject | undefined;
}

/** "Notification auto-dismiss 5 s by default" (scheduling seed §9). */
export const DEFAULT_NOTICE_MS = 5_000;
