import { useState } from "react";
import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import type { ReviewItemView } from "../../../core/model/contract/index.ts";
import { eyeNames } from "../../i18n/names.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useClient } from "../../state/client.ts";
import { useNotify } from "../../ui/notifications.ts";
import { useFlagNames, useReasonWords } from "./flag-words.ts";
import { ReviewActionDialog, type ReviewAction } from "./ReviewActionDialog.tsx";

/**
 * One item of the review queue: whose result (or missed sessions), which eye and when, each flag with its reasons in
 * words, and what the clinician does with it: open the result with its series (the result page), mark it reviewed,
 * add a note, ask for a repeat, or book a clinic visit.
 */
export function ReviewItemRow({ item }: { item: ReviewItemView }) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const client = useClient();
  const notify = useNotify();
  const flagNames = useFlagNames();
  const reasonWords = useReasonWords();
  const [action, setAction] = useState<ReviewAction | null>(null);
  const done = (text: string) => {
    setAction(null);
    notify({ kind: "success", text });
    void client.reads.reload("review.queue");
    void client.reads.reload("review.counts");
  };
  const open = item.state === "new";
  const patient = encodeURIComponent(item.patient.id);
  const result = item.kind === "result" && item.measurementId !== null;
  const note = item.note;
  const asked = item.repeatRequestedAt ? format.date(item.repeatRequestedAt) : "";
  const until = item.repeat ? format.date(item.repeat.to) : ""; // a calendar date: format.date reads it as that day
  const reviewer = item.reviewedBy ?? "";
  const reviewed = item.reviewedAt ? format.date(item.reviewedAt) : "";
  return (
    <tr data-review-item={item.id} data-kind={item.kind} data-flags={item.flags.map((f) => f.kind).join(" ")}>
      <td>
        <Link to={`/patient/${patient}/home-monitoring`} data-user-text>
          {item.patient.name}
        </Link>
      </td>
      <td>{item.eye === null ? t`Both eyes` : i18n._(eyeNames[item.eye])}</td>
      <td>{format.dateTime(item.takenAt)}</td>
      <td>
        <ul style={{ margin: 0, paddingLeft: "var(--space-4)" }}>
          {item.flags.map((f) => (
            <li key={f.kind} data-flag={f.kind}>
              <strong>{flagNames[f.kind]}</strong>
              {f.reasons.length > 0 && `: ${f.reasons.map(reasonWords).join("; ")}`}
            </li>
          ))}
          {item.triage === "failed" && <li data-flag="triage-failed">{t`Could not be checked automatically: read it yourself.`}</li>}
          {item.flags.length === 0 && item.triage === "done" && <li className="muted">{t`No flag`}</li>}
        </ul>
        {note && <p style={{ margin: "var(--space-1) 0 0" }}>{t`Note: ${note}`}</p>}
        {item.repeatRequestedAt && (
          <p className="muted" style={{ margin: 0 }} data-repeat={item.repeat?.state ?? "asked"}>
            {item.repeat?.state === "pending"
              ? t`Repeat asked for on ${asked}: pending until ${until}`
              : item.repeat?.state === "done"
                ? t`Repeat asked for on ${asked}: done`
                : item.repeat?.state === "missed"
                  ? t`Repeat asked for on ${asked}: not done by ${until}`
                  : t`Repeat asked for on ${asked}`}
          </p>
        )}
        {item.bookedMeasurementIds.length > 0 && <p className="muted" style={{ margin: 0 }}>{t`Clinic visit booked`}</p>}
        {!open && reviewer && reviewed && <p className="muted" style={{ margin: 0 }}>{t`Reviewed by ${reviewer} on ${reviewed}`}</p>}
      </td>
      <td>
        <div className="row" style={{ gap: "var(--space-1)", flexWrap: "wrap", justifyContent: "flex-end", minWidth: "17rem" }}>
          {result && (
            <Link className="btn" to={`/patient/${patient}/perimetry/${encodeURIComponent(item.measurementId!)}?scrollToMeasurement=1`}>
              {t`Open result`}
            </Link>
          )}
          {open && <button type="button" className="btn btn-primary" onClick={() => setAction("mark")}>{t`Mark reviewed`}</button>}
          <button type="button" className="btn" onClick={() => setAction("note")}>{t`Add a note`}</button>
          {result && !item.repeatRequestedAt && (
            <button type="button" className="btn" onClick={() => setAction("repeat")}>{t`Ask for a repeat`}</button>
          )}
          <button type="button" className="btn" onClick={() => setAction("book")}>{t`Book a clinic visit`}</button>
        </div>
        {action && <ReviewActionDialog action={action} item={item} onCancel={() => setAction(null)} onDone={done} />}
      </td>
    </tr>
  );
}
