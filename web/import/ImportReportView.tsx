import { useId, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { Plural, useLingui } from "@lingui/react/macro";
import { importSummary } from "../../core/client/index.ts";
import { patternLabel } from "../../core/model/enums.ts";
import type { ImportFileReport, ImportItem, ImportReport } from "../../core/model/import.ts";
import type { ImportFormat } from "../../core/model/result-source.ts";
import { useDateFormat } from "../i18n/format.ts";
import { eyeNames } from "../i18n/names.ts";

// The report of an import, in the words of `isopter import` (cli/commands/import.ts): the counts (files imported,
// duplicates, refused, patients created), the patients with a link to each, then every file with what happened to it
// and why, refused files first. The reasons are the server's own sentences, as the CLI prints them.

/** Files listed at first; a folder of thousands shows the rest on request. */
const FILES_SHOWN = 200;
/** Fields listed per file (a CSV may hold hundreds). */
const ITEMS_SHOWN = 20;

/** Format names are names: the same in every language. */
const formatNames: Record<ImportFormat, string> = { "dicom-opv": "DICOM OPV", fhir: "FHIR Bundle", "visualfields-csv": "visualFields CSV" };

const patientPage = (id: string) => `/patient/${id}/perimetry/all`;

export function ImportReportView({ report }: { report: ImportReport | null }) {
  const { t } = useLingui();
  const headingId = useId();
  const [all, setAll] = useState(false);
  const summary = useMemo(() => (report ? importSummary(report) : null), [report]);
  // Refused files first, the rest as sent; each keeps its place in the report as its key (a name may come twice).
  const files = useMemo(
    () =>
      (report?.files ?? [])
        .map((file, at) => ({ file, at }))
        .sort((a, b) => Number(b.file.action === "refused") - Number(a.file.action === "refused")),
    [report],
  );
  const patients = useMemo(() => {
    const seen = new Map<string, NonNullable<ImportItem["patient"]>>();
    for (const f of report?.files ?? [])
      if (f.action === "imported")
        for (const i of f.items)
          if (i.action === "imported" && i.patient && !seen.has(i.patient.uniqueId)) seen.set(i.patient.uniqueId, i.patient);
    return [...seen.values()];
  }, [report]);
  const dry = report?.dryRun ?? false;
  const shown = all ? files : files.slice(0, FILES_SHOWN);
  const fileCount = files.length;

  return (
    <section className="import-report" aria-labelledby={report ? headingId : undefined} data-testid="import-report">
      <div aria-live="polite" aria-atomic="true">
        {report && summary && (
          <>
            <h3 id={headingId}>{dry ? t`What would happen` : t`Import report`}</h3>
            {dry && <p className="muted">{t`Check only: nothing was written.`}</p>}
            <dl className="import-counts">
              <div className="import-count" data-testid="count-imported">
                <dt>{dry ? t`Files to import` : t`Files imported`}</dt>
                <dd>
                  <span className="import-count-value">{summary.imported}</span>
                  {summary.fields > 0 && (
                    <span className="import-count-note">
                      <Plural value={summary.fields} one="# result" other="# results" />
                    </span>
                  )}
                </dd>
              </div>
              <div className="import-count" data-testid="count-duplicates">
                <dt>{t`Duplicates`}</dt>
                <dd>
                  <span className="import-count-value">{summary.duplicates}</span>
                </dd>
              </div>
              <div className={summary.refused > 0 ? "import-count import-count-refused" : "import-count"} data-testid="count-refused">
                <dt>{t`Files refused`}</dt>
                <dd>
                  <span className="import-count-value">{summary.refused}</span>
                </dd>
              </div>
              <div className="import-count" data-testid="count-patients-created">
                <dt>{dry ? t`Patients to create` : t`Patients created`}</dt>
                <dd>
                  <span className="import-count-value">{summary.patientsCreated}</span>
                </dd>
              </div>
            </dl>
          </>
        )}
      </div>
      {report && patients.length > 0 && (
        <div className="import-patients">
          <h4>{t`Patients`}</h4>
          <ul className="import-patient-list">
            {patients.map((p) => (
              <li key={p.uniqueId}>
                <PatientRef patient={p} dry={dry} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {report && files.length > 0 && (
        <div className="import-files">
          <h4>{t`Files`}</h4>
          <ul className="import-file-list">
            {shown.map((f) => (
              <FileEntry key={f.at} file={f.file} dry={dry} />
            ))}
          </ul>
          {shown.length < files.length && (
            <button type="button" className="btn" onClick={() => setAll(true)}>
              {t`Show all ${fileCount} files`}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function ActionBadge({ action, dry }: { action: ImportFileReport["action"]; dry: boolean }) {
  const { t } = useLingui();
  const label = action === "refused" ? t`Refused` : action === "duplicate" ? t`Duplicate` : dry ? t`Would import` : t`Imported`;
  return <span className={`import-badge import-badge-${action}`}>{label}</span>;
}

function FileEntry({ file: f, dry }: { file: ImportFileReport; dry: boolean }) {
  const items = f.items.slice(0, ITEMS_SHOWN);
  const more = f.items.length - items.length;
  return (
    <li className={`import-file import-file-${f.action}`} data-action={f.action}>
      <div className="import-file-head">
        <ActionBadge action={f.action} dry={dry} />
        <span className="import-file-name">{f.file}</span>
        {f.format && <span className="import-format">{formatNames[f.format]}</span>}
      </div>
      {f.reason && <p className="import-reason">{f.reason}</p>}
      {items.length > 0 && (
        <ul className="import-items">
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a file's fields as the server listed them, never reordered
            <ItemLine key={i} item={item} dry={dry} />
          ))}
          {more > 0 && (
            <li className="import-more">
              <Plural value={more} one="and # more result" other="and # more results" />
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

function ItemLine({ item: i, dry }: { item: ImportItem; dry: boolean }) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const what = [
    i.pattern !== null ? patternLabel[i.pattern] : null,
    i.eye !== null ? i18n._(eyeNames[i.eye]) : null,
    i.takenAt !== null ? format.date(i.takenAt) : null,
    i.device,
  ].filter((part): part is string => Boolean(part));
  const reason = i.reason ?? "";
  return (
    <li className="import-item">
      {what.length > 0 && <span className="import-item-what">{what.join(" · ")}</span>}
      {i.action === "refused" && (
        <span className="import-item-outcome import-item-refused">
          <Arrow />
          {t`Refused: ${reason}`}
        </span>
      )}
      {i.action === "duplicate" && (
        <span className="import-item-outcome">
          <Arrow />
          {reason ? t`Duplicate (${reason})` : t`Duplicate`}
        </span>
      )}
      {i.action === "imported" && i.patient && (
        <span className="import-item-outcome">
          <Arrow />
          <PatientRef patient={i.patient} dry={dry} />
        </span>
      )}
      <span className="import-item-id">{i.item}</span>
    </li>
  );
}

/** What happened to a field, after what it is. */
const Arrow = () => <span aria-hidden="true">→ </span>;

function PatientRef({ patient: p, dry }: { patient: NonNullable<ImportItem["patient"]>; dry: boolean }) {
  const { t } = useLingui();
  const how =
    p.match === "created"
      ? dry
        ? t`would be created`
        : t`created`
      : p.match === "id"
        ? t`matched by patient ID`
        : t`matched by name and birth date`;
  const name = `${p.name} (${p.uniqueId})`;
  return (
    <>
      {p.id !== null && !(dry && p.match === "created") ? (
        <Link to={patientPage(p.id)} data-user-text>
          {name}
        </Link>
      ) : (
        <span data-user-text>{name}</span>
      )}{" "}
      <span className="import-how">{how}</span>
    </>
  );
}
