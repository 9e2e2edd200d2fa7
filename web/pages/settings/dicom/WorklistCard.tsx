import { useId, useMemo, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { CacheKey } from "../../../../core/client/index.ts";
import type { DicomSettings } from "../../../../core/model/dicom-network.ts";
import { useCache } from "../../../state/client.ts";
import { Select } from "../../../ui/Select.tsx";
import { TextInput } from "../../../ui/TextInput.tsx";
import { Toggle } from "../../../ui/Toggle.tsx";
import { ConnectionTest } from "./ConnectionTest.tsx";
import { checkWorklist, fieldOfPath, sameWorklist, worklistForm, type FieldId, type WorklistForm } from "./dicom-form.ts";
import { ErrorSummary } from "./ErrorSummary.tsx";
import { LocalCodesTable } from "./LocalCodesTable.tsx";
import { fieldProps, inputIdOf, NodeFields, useNodeLabels } from "./NodeFields.tsx";
import { SaveRow } from "./SaveRow.tsx";
import { useCardSave } from "./use-card-save.ts";
import { useFieldErrors } from "./use-field-errors.ts";
import { WorklistQuery } from "./WorklistQuery.tsx";

// The worklist card of the DICOM network (issue 29 §3): the worklist provider (host, port, its AE title and the
// station's), the periodic query, the headset new steps are queued on, the modality asked for and the clinic's own
// protocol codes; Save, then "Test connection" and "Query now" with the settings as saved.

export function WorklistCard({ saved }: { saved: DicomSettings }) {
  const { t } = useLingui();
  const prefix = useId();
  const headingId = useId();
  const devices = useCache(CacheKey.Devices, {});
  const savedKey = JSON.stringify(saved.worklist);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `savedKey` stands for the saved worklist by value
  const base = useMemo(() => worklistForm(saved.worklist), [savedKey]);
  const [form, setForm] = useState<WorklistForm>(base);
  const checked = checkWorklist(form);
  const errors = useFieldErrors(checked.errors);
  const card = useCardSave(errors, (path) => fieldOfPath(path, "worklist", form.codes));
  const dirty = !sameWorklist(form, base);
  const nodeLabels = useNodeLabels("worklist");

  const change = (next: WorklistForm) => {
    setForm(next);
    card.changed();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void card.save(checked.value === undefined ? undefined : { worklist: checked.value, pacs: saved.pacs }, (stored) =>
      setForm(worklistForm(stored.worklist)),
    );
  };

  const labels: Record<string, string> = {
    ...nodeLabels,
    intervalMinutes: t`Query every (minutes)`,
    modality: t`Modality`,
    deviceSn: t`Queue new steps on`,
  };
  const labelOf = (id: FieldId) => {
    const code = /^codes\.(\d+)\.(scheme|value)$/.exec(id);
    if (!code) return labels[id] ?? id;
    const row = form.codes.findIndex((c) => c.key === Number(code[1])) + 1;
    return code[2] === "scheme" ? t`Coding scheme, code ${row}` : t`Code value, code ${row}`;
  };

  const headsets =
    devices.status === "success"
      ? devices.data.map((d) => ({ value: d.deviceSn, label: d.alias ? `${d.alias} (${d.deviceSn})` : d.deviceSn }))
      : [];
  // A saved headset the list does not hold (yet) stays choosable, named by its serial.
  if (form.deviceSn !== "" && !headsets.some((h) => h.value === form.deviceSn))
    headsets.push({ value: form.deviceSn, label: form.deviceSn });
  const headsetOptions = [{ value: "", label: t`None: match the patients, queue nothing` }, ...headsets];

  return (
    <section className="card dicom-card" aria-labelledby={headingId} data-testid="worklist-card">
      <div className="dicom-card-head">
        <h3 id={headingId}>{t`Worklist`}</h3>
        <Toggle label={t`Use a worklist provider`} checked={form.on} onChange={(on) => change({ ...form, on })} />
      </div>
      <p className="field-hint dicom-intro">
        {t`Orders come from the clinic's RIS as a DICOM Modality Worklist: each new step of today for this station becomes a measurement queued on the chosen headset, with its patient found or created.`}
      </p>
      {card.refusedAttempts > 0 && (
        <ErrorSummary
          attempt={card.refusedAttempts}
          entries={errors.shown.map(([id, message]) => ({ inputId: inputIdOf(prefix, id), label: labelOf(id), message }))}
        />
      )}
      <form noValidate onSubmit={submit}>
        {form.on ? (
          <>
            <fieldset className="dicom-fieldset">
              <legend>{t`Worklist provider`}</legend>
              <NodeFields
                prefix={prefix}
                node={form.provider}
                labels={nodeLabels}
                errors={errors}
                onChange={(provider) => change({ ...form, provider })}
              />
            </fieldset>
            <fieldset className="dicom-fieldset">
              <legend>{t`New steps`}</legend>
              <div className="dicom-grid dicom-grid-wide">
                <Select
                  id={inputIdOf(prefix, "deviceSn")}
                  label={labels.deviceSn!}
                  value={form.deviceSn}
                  options={headsetOptions}
                  error={errors.message("deviceSn")}
                  onChange={(deviceSn) => {
                    errors.edited("deviceSn");
                    change({ ...form, deviceSn });
                  }}
                />
                <TextInput
                  {...fieldProps(prefix, "modality", form.modality, errors, (modality) => change({ ...form, modality }))}
                  label={labels.modality!}
                  hint={t`The modality the query asks for: OPV for perimetry.`}
                  required
                  autoComplete="off"
                  spellCheck={false}
                />
              </div>
            </fieldset>
            <fieldset className="dicom-fieldset">
              <legend>{t`Periodic query`}</legend>
              <div className="dicom-periodic">
                <Toggle label={t`Query periodically`} checked={form.enabled} onChange={(enabled) => change({ ...form, enabled })} />
                <TextInput
                  {...fieldProps(prefix, "intervalMinutes", form.intervalMinutes, errors, (intervalMinutes) =>
                    change({ ...form, intervalMinutes }),
                  )}
                  label={labels.intervalMinutes!}
                  hint={form.enabled ? t`Isopter queries on its own at this interval.` : t`Off: Isopter queries only when asked.`}
                  required
                  inputMode="numeric"
                  autoComplete="off"
                />
              </div>
            </fieldset>
            <LocalCodesTable prefix={prefix} codes={form.codes} errors={errors} onChange={(codes) => change({ ...form, codes })} />
          </>
        ) : (
          <p className="muted">
            {saved.worklist
              ? t`Off: saving removes the worklist provider, and Isopter no longer queries it.`
              : t`No worklist provider is set.`}
          </p>
        )}
        {(form.on || dirty || card.state !== "idle") && <SaveRow card={card} />}
      </form>
      {saved.worklist && (
        <div className="dicom-actions">
          <ConnectionTest peer="worklist" unsaved={dirty} />
          <WorklistQuery unsaved={dirty} />
        </div>
      )}
    </section>
  );
}
