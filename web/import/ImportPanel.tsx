import { useId, useRef, useState, type DragEvent } from "react";
import { Plural } from "@lingui/react/macro";
import { useLingui } from "@lingui/react/macro";
import { parseCsvPatients, type ImportProgress } from "../../core/client/index.ts";
import { isApiError } from "../../core/model/contract/index.ts";
import type { ImportReport } from "../../core/model/import.ts";
import { useClient } from "../state/client.ts";
import { fromDrop, fromFileList, importSources, type PickedFile } from "./picked-files.ts";
import { ImportReportView } from "./ImportReportView.tsx";
import "./import.css";
import { DryRunCheck } from "./DryRunCheck.tsx";

// "Import results" (issue 29): a manager brings in fields taken elsewhere (DICOM OPV from any perimeter, a FHIR Bundle,
// a visualFields CSV), in settings for the whole clinic and on a patient's page for that patient. Files or whole
// folders are dropped on the drop zone (itself a button that opens the file picker) or chosen; "Check only" says what
// would happen and writes nothing. One core/client command sends them in batches (client.results.importResults) and
// reports progress as files done of all; the report follows the words of `isopter import`.

type Phase =
  | { readonly kind: "idle" }
  | ({ readonly kind: "running"; readonly dryRun: boolean } & ImportProgress)
  | { readonly kind: "done"; readonly report: ImportReport }
  | { readonly kind: "failed"; readonly forbidden: boolean };

type Mapping = { readonly file: string; readonly map: Record<string, string> } | { readonly file: string; readonly badLine: number };

/** File sizes in the interface language's digits: 3.4 MB, 820 kB. */
const useSize = () => {
  const { i18n } = useLingui();
  return (bytes: number) =>
    new Intl.NumberFormat(i18n.locale === "chi" ? "zh" : i18n.locale === "bp" ? "pt-BR" : i18n.locale === "mexsp" ? "es-MX" : i18n.locale, {
      style: "unit",
      unit: bytes >= 1e6 ? "megabyte" : "kilobyte",
      maximumFractionDigits: 1,
    }).format(bytes >= 1e6 ? bytes / 1e6 : Math.max(0.1, bytes / 1e3));
};

function UploadIcon() {
  return (
    <svg className="import-drop-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path
        d="M12 15V4M7.5 8.5 12 4l4.5 4.5M4 14v4.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V14"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export interface ImportPanelProps {
  /** On a patient's page: every field must be this patient's (the server refuses any other). */
  readonly patientId?: string;
  /** The patient's name, for the sentence that says so. */
  readonly patientName?: string;
}

export function ImportPanel({ patientId, patientName }: ImportPanelProps) {
  const { t } = useLingui();
  const client = useClient();
  const size = useSize();
  const ids = { hint: useId(), mappingHint: useId(), chosen: useId() };
  const [files, setFiles] = useState<readonly PickedFile[]>([]);
  const [reading, setReading] = useState(false);
  const [over, setOver] = useState(false);
  const [dryRun, setDryRun] = useState(false);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const mappingInput = useRef<HTMLInputElement>(null);
  const running = phase.kind === "running";
  const busy = running || reading;

  const choose = (picked: PickedFile[]) => {
    setFiles(picked);
    if (phase.kind !== "running") setPhase({ kind: "idle" });
  };

  const onDrag = (event: DragEvent) => {
    if (![...event.dataTransfer.types].includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? "none" : "copy";
    setOver(!busy);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (busy) return;
    setReading(true);
    void fromDrop(event.dataTransfer)
      .then(choose, () => choose([]))
      .finally(() => setReading(false));
  };

  const readMapping = async (file: File | undefined) => {
    if (!file) return setMapping(null);
    const parsed = parseCsvPatients(await file.text());
    setMapping({ file: file.name, ...parsed });
  };

  const start = async () => {
    if (files.length === 0 || busy || (mapping !== null && "badLine" in mapping)) return;
    const options = {
      dryRun,
      patientId: patientId ?? null,
      ...(mapping !== null && "map" in mapping ? { csvPatients: mapping.map } : {}),
    };
    setPhase({ kind: "running", dryRun, done: 0, total: files.length });
    try {
      const report = await client.results.importResults(importSources(files), options, (p) => setPhase({ kind: "running", dryRun, ...p }));
      setPhase({ kind: "done", report });
      // After a check the same files are imported next; after an import they are done with.
      if (!report.dryRun) setFiles([]);
    } catch (error) {
      setPhase({ kind: "failed", forbidden: isApiError(error) && (error.status === 403 || error.status === 401) });
    }
  };

  const totalSize = files.reduce((sum, f) => sum + f.size, 0);
  const mappingBad = mapping !== null && "badLine" in mapping;
  const mappingFile = mapping?.file ?? "";
  const mappedCount = mapping !== null && "map" in mapping ? Object.keys(mapping.map).length : 0;
  const badLine = mapping !== null && "badLine" in mapping ? mapping.badLine : 0;
  const n = files.length;

  return (
    <div className="import-panel stack">
      <p className="muted">
        {t`DICOM OPV files from any perimeter, FHIR Bundles and visualFields CSV files. Patients are matched by patient ID, else by name and birth date; a patient is created only when none matches. A file imported twice changes nothing.`}
      </p>
      {patientId !== undefined && patientName !== undefined && (
        <div className="alert alert-info">{t`Every result must belong to ${patientName}: a file of another patient is refused.`}</div>
      )}

      <button
        type="button"
        className={over ? "import-drop import-drop-over" : "import-drop"}
        disabled={busy}
        aria-describedby={ids.hint}
        onClick={() => filesInput.current?.click()}
        onDragEnter={onDrag}
        onDragOver={onDrag}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="import-drop-zone"
      >
        <UploadIcon />
        <span className="import-drop-title">{reading ? t`Reading the folder…` : t`Drop files or a folder here`}</span>
        <span id={ids.hint} className="import-drop-hint">{t`or press to choose files`}</span>
      </button>
      <div className="row">
        <button type="button" className="btn" disabled={busy} onClick={() => filesInput.current?.click()}>{t`Choose files`}</button>
        <button type="button" className="btn" disabled={busy} onClick={() => folderInput.current?.click()}>{t`Choose folder`}</button>
        <input
          ref={filesInput}
          type="file"
          multiple
          hidden
          data-testid="import-files-input"
          onChange={(e) => {
            choose(fromFileList(e.target.files ?? []));
            e.target.value = "";
          }}
        />
        <input
          ref={folderInput}
          type="file"
          hidden
          data-testid="import-folder-input"
          {...{ webkitdirectory: "" }}
          onChange={(e) => {
            choose(fromFileList(e.target.files ?? []));
            e.target.value = "";
          }}
        />
        <span id={ids.chosen} className="import-chosen" role="status">
          {n === 0 ? (
            <span className="muted">{t`No files chosen yet.`}</span>
          ) : (
            <>
              <Plural value={n} one="# file chosen" other="# files chosen" /> ({size(totalSize)})
            </>
          )}
        </span>
        {n > 0 && !busy && <button type="button" className="btn btn-link" onClick={() => choose([])}>{t`Clear`}</button>}
      </div>

      <div className="import-options">
        <DryRunCheck
          checked={dryRun}
          disabled={running}
          hint={t`Says per file what would happen and writes nothing.`}
          onChange={setDryRun}
        />
        <fieldset className="field import-mapping">
          <legend className="label">{t`Patients of a visualFields CSV (optional)`}</legend>
          <div className="row">
            <button
              type="button"
              className="btn"
              disabled={running}
              aria-describedby={ids.mappingHint}
              onClick={() => mappingInput.current?.click()}
            >{t`Choose mapping file`}</button>
            <input
              ref={mappingInput}
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              hidden
              data-testid="import-mapping-input"
              onChange={(e) => void readMapping(e.target.files?.[0])}
            />
            {mapping !== null && (
              <span className="import-mapping-name" data-user-text>
                {mappingFile}
              </span>
            )}
            {mapping !== null && !running && (
              <button
                type="button"
                className="btn btn-link"
                onClick={() => {
                  setMapping(null);
                  if (mappingInput.current) mappingInput.current.value = "";
                }}
              >{t`Remove`}</button>
            )}
          </div>
          <span id={ids.mappingHint} className="field-hint">
            {t`Lines of "csv id,patient ID". Without it, the CSV's id column is the patient ID.`}
          </span>
          {mapping !== null &&
            (mappingBad ? (
              <span className="field-error" role="alert">{t`Line ${badLine} of ${mappingFile} is not "csv id,patient ID".`}</span>
            ) : (
              <span className="field-hint" role="status">
                <Plural value={mappedCount} one="# ID mapped" other="# IDs mapped" />
              </span>
            ))}
        </fieldset>
      </div>

      <div className="row">
        <button type="button" className="btn btn-primary" disabled={n === 0 || busy || mappingBad} onClick={() => void start()}>
          {n === 0 ? (
            dryRun ? (
              t`Check files`
            ) : (
              t`Import files`
            )
          ) : dryRun ? (
            <Plural value={n} one="Check # file" other="Check # files" />
          ) : (
            <Plural value={n} one="Import # file" other="Import # files" />
          )}
        </button>
      </div>

      {running && <ImportProgressBar done={phase.done} total={phase.total} dryRun={phase.dryRun} />}
      {phase.kind === "failed" && (
        <div className="alert alert-error" role="alert">
          {phase.forbidden ? t`Only managers can import results.` : t`The files could not be imported. Try again or refresh the browser.`}
        </div>
      )}
      {/* The report's summary is a live region: present before any report, so its arrival is announced. */}
      <ImportReportView report={phase.kind === "done" ? phase.report : null} />
    </div>
  );
}

function ImportProgressBar({ done, total, dryRun }: { done: number; total: number; dryRun: boolean }) {
  const { t } = useLingui();
  const fill = total === 0 ? 0 : (done / total) * 100;
  const label = t`${done} of ${total} files`;
  return (
    <div className="import-progress">
      <span className="import-progress-title">{dryRun ? t`Checking…` : t`Importing…`}</span>
      <div className="progress">
        <div
          className="progress-track"
          role="progressbar"
          aria-label={dryRun ? t`Checking the files` : t`Importing the files`}
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={done}
          aria-valuetext={label}
        >
          <div className="progress-fill" style={{ width: `${fill}%` }} />
        </div>
        <span className="progress-label import-progress-label">{label}</span>
      </div>
    </div>
  );
}
