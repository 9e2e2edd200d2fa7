import { Schema } from "effect";
import { EyeSchema } from "../enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateSchema, IsoDateTimeSchema } from "../ids.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { IdQuery } from "./shared.ts";

// The review queue and the adherence list (issue 31 §2, §3; our design). Open to every role, as reading results is
// (perimetry/all and perimetry/page carry no role rule). The flags are core/home's triage on the wire: core/home sits
// above the model, so the contract mirrors its types here and the server (simulator/server/review) checks with tsc
// that each is assignable to the other.

/** core/home FLAG_ORDER: the order of need. */
export const REVIEW_FLAG_KINDS = ["unreliable", "outlier", "progression", "missed"] as const;
export const ReviewFlagKindSchema = Schema.Literals(REVIEW_FLAG_KINDS);
export type ReviewFlagKind = Schema.Schema.Type<typeof ReviewFlagKindSchema>;

const EventStatus = Schema.Literals(["none", "possible progression", "likely progression"]);
const Verdict = Schema.Literals(["worsening", "stable", "improving"]);
/** core/analytics METHOD_IDS. */
const MethodId = Schema.Literals([
  "events",
  "poplr",
  "md-slope",
  "vfi-trend",
  "cigts",
  "plr-nouri-2012",
  "plr-three-omitting",
  "schell-2014",
  "cluster-trend",
]);

/** One reason of a flag with its figures (core/home FlagReason). */
export const ReviewFlagReasonSchema = Schema.Union([
  Schema.Struct({
    code: Schema.Literals(["false-positives", "false-negatives", "fixation-losses"]),
    rate: Schema.Finite,
    limit: Schema.Finite,
  }),
  Schema.Struct({
    code: Schema.Literals(["gaze-off-target", "gaze-lost"]),
    share: Schema.Finite,
    limit: Schema.Finite,
    samples: Schema.Finite,
  }),
  Schema.Struct({
    code: Schema.Literal("md-from-median"),
    md: Schema.Finite,
    median: Schema.Finite,
    difference: Schema.Finite,
    limit: Schema.Finite,
    results: Schema.Finite,
  }),
  Schema.Struct({ code: Schema.Literal("new-cluster"), locations: Schema.mutable(Schema.Array(Schema.Finite)) }),
  Schema.Struct({
    code: Schema.Literal("progression-event"),
    status: Schema.Literals(["possible progression", "likely progression"]),
    previous: Schema.NullOr(EventStatus),
  }),
  Schema.Struct({
    code: Schema.Literal("criterion-worsening"),
    method: MethodId,
    previous: Schema.Union([Verdict, Schema.Literal("not-applicable")]),
  }),
  Schema.Struct({ code: Schema.Literal("missed-sessions"), sessions: Schema.Finite }),
]);
export type ReviewFlagReason = Schema.Schema.Type<typeof ReviewFlagReasonSchema>;

export const ReviewFlagSchema = Schema.Struct({
  kind: ReviewFlagKindSchema,
  reasons: Schema.mutable(Schema.Array(ReviewFlagReasonSchema)),
});
export type ReviewFlag = Schema.Schema.Type<typeof ReviewFlagSchema>;

export const ReviewStateSchema = Schema.Literals(["new", "reviewed"]);
export type ReviewState = Schema.Schema.Type<typeof ReviewStateSchema>;

/** A home session of a programme (core/home Session): its index and its window, calendar dates in the clinic's zone. */
export const ReviewSessionSchema = Schema.Struct({ index: Schema.Int, from: IsoDateSchema, to: IsoDateSchema });

export const ReviewItemSchema = Schema.Struct({
  id: IdSchema,
  /** A home result to read, or a programme's missed sessions (no result: a call to the patient). */
  kind: Schema.Literals(["result", "missed"]),
  patient: Schema.Struct({ id: IdSchema, name: Schema.String }),
  programmeId: IdSchema,
  /** The result's measurement (web: /patient/{patient.id}/perimetry/{measurementId}); null for missed sessions. */
  measurementId: Schema.NullOr(IdSchema),
  /** The result's eye; null for missed sessions (a session is every eye of the programme). */
  eye: Schema.NullOr(EyeSchema),
  /** When the result was taken; for missed sessions, the end of the last missed session's window (its day's end). */
  takenAt: IsoDateTimeSchema,
  /** Missed items: the last session missed; `sessions` missed in a row up to it are in the flag's reason. */
  session: Schema.NullOr(ReviewSessionSchema),
  /** In order of need, one per kind raised; empty when none was (or when the triage failed). */
  flags: Schema.mutable(Schema.Array(ReviewFlagSchema)),
  /** "failed": the triage could not run on this result (logged); the result is stored and still needs reading. */
  triage: Schema.Literals(["done", "failed"]),
  state: ReviewStateSchema,
  note: Schema.NullOr(Schema.String),
  reviewedBy: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(IsoDateTimeSchema),
  /** When a repeat was asked for (review.repeat), else null. */
  repeatRequestedAt: Schema.NullOr(IsoDateTimeSchema),
  /** The repeat asked for (core/home/repeat.ts): its window and whether its result came (missed: the window closed
   * without); null when none was asked for. */
  repeat: Schema.NullOr(Schema.Struct({ state: Schema.Literals(["pending", "done", "missed"]), from: IsoDateSchema, to: IsoDateSchema })),
  /** The clinic measurements review.book queued, in queue order (empty when none was booked). */
  bookedMeasurementIds: Schema.Array(IdSchema),
  createdAt: IsoDateTimeSchema,
});
export type ReviewItemView = Schema.Schema.Type<typeof ReviewItemSchema>;

/** Largest page review/queue answers. */
export const REVIEW_PAGE_MAX = 200;
const IntFromQuery = Schema.NumberFromString.check(Schema.isInt());

export const ReviewQueueQuerySchema = Schema.Struct({
  flag: Schema.optionalKey(ReviewFlagKindSchema),
  /** Default "new". */
  state: Schema.optionalKey(ReviewStateSchema),
  /** 0-based; default 0. */
  page: Schema.optionalKey(IntFromQuery),
  /** 1..REVIEW_PAGE_MAX; default 50. */
  quantity: Schema.optionalKey(IntFromQuery),
});
export type ReviewQueueQuery = Schema.Schema.Type<typeof ReviewQueueQuerySchema>;

export const ReviewQueuePageSchema = Schema.Struct({
  /** Sorted by need (core/home orderByNeed: first flag's kind, more flags, oldest first); unflagged last. */
  items: Schema.Array(ReviewItemSchema),
  /** Items matching the filter, all pages. */
  total: Schema.Int,
  page: Schema.Int,
});
export type ReviewQueuePage = Schema.Schema.Type<typeof ReviewQueuePageSchema>;

/** Items not yet reviewed per flag kind (an item with two flags counts under both); triageFailed: items whose triage failed. */
export const ReviewCountsSchema = Schema.Struct({
  unreliable: Schema.Int,
  outlier: Schema.Int,
  progression: Schema.Int,
  missed: Schema.Int,
  triageFailed: Schema.Int,
});
export type ReviewCounts = Schema.Schema.Type<typeof ReviewCountsSchema>;

export const HomeAdherenceRowSchema = Schema.Struct({
  programmeId: IdSchema,
  patient: Schema.Struct({ id: IdSchema, name: Schema.String }),
  today: IsoDateSchema,
  due: Schema.Int,
  done: Schema.Int,
  missed: Schema.Int,
  partial: Schema.Int,
  /** done / due; null while no session is due. */
  rate: Schema.NullOr(Schema.Finite),
  /** Repeats asked for (core/home/repeat.ts), counted apart: they are no session of the programme and leave the rate. */
  repeats: Schema.Struct({ pending: Schema.Int, done: Schema.Int, missed: Schema.Int }),
});
export type HomeAdherenceRow = Schema.Schema.Type<typeof HomeAdherenceRowSchema>;

export const reviewQueue = endpoint({
  name: "review.queue",
  method: "GET",
  path: "review/queue",
  query: ReviewQueueQuerySchema,
  response: ReviewQueuePageSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "the organisation's home results and missed sessions to review, by need (core/home orderByNeed), filtered by flag kind " +
    "and state (default new), paged (page, quantity)",
});

export const reviewCounts = endpoint({
  name: "review.counts",
  method: "GET",
  path: "review/counts",
  response: ReviewCountsSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "items not yet reviewed per flag kind, for the home page",
});

const actionSpec = {
  method: "PATCH",
  query: IdQuery,
  response: ReviewItemSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
} as const;

export const reviewMark = endpoint({
  ...actionSpec,
  name: "review.mark",
  path: "review/mark",
  body: Schema.Struct({ note: Schema.optionalKey(Schema.String) }),
  ourDesign: "marks the item reviewed, with the note when one is sent (it replaces the old one); audited",
});

export const reviewNote = endpoint({
  ...actionSpec,
  name: "review.note",
  path: "review/note",
  body: Schema.Struct({ note: Schema.String }),
  ourDesign: "adds or replaces the item's note (an empty note removes it); audited",
});

export const reviewRepeat = endpoint({
  ...actionSpec,
  name: "review.repeat",
  path: "review/repeat",
  errors: [...commonErrors, "not_found", "conflict"],
  ourDesign:
    "asks the patient for a repeat of a home result: a one-off session of that eye for 7 days from today within the " +
    "programme (core/home/repeat.ts), sent to the lent headset in its schedule; stored on the item (repeatRequestedAt, " +
    "repeat: pending, done or missed) and a message to the patient through the sender port; once per item; audited. " +
    "validation_error for a missed-session item; conflict when the programme has ended, its last day has passed, or a " +
    "repeat of the eye is pending already",
});

export const reviewBook = endpoint({
  ...actionSpec,
  name: "review.book",
  path: "review/book",
  body: Schema.Struct({ deviceSn: DeviceSnSchema }),
  ourDesign:
    "books a clinic visit: queues the programme's test (its eyes, pattern and strategy) on the clinic headset deviceSn " +
    "through perimetry/register's path; audited; not_found when the item or the headset does not exist",
});

export const homeAdherenceList = endpoint({
  name: "home.adherenceList",
  method: "GET",
  path: "home/programme/adherence_list",
  query: Schema.Struct({ below: Schema.optionalKey(Schema.NumberFromString.check(Schema.isBetween({ minimum: 0, maximum: 1 }))) }),
  response: Schema.Array(HomeAdherenceRowSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "adherence of every active programme on the clinic's today (core/home adherence); with below (0..1) only those whose " +
    "rate is below it, lowest first (core/home belowThreshold), else all by patient name",
});
