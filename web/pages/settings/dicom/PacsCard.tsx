import { useId, useMemo, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import type { DicomSettings } from "../../../../core/model/dicom-network.ts";
import { TextInput } from "../../../ui/TextInput.tsx";
import { Toggle } from "../../../ui/Toggle.tsx";
import { ConnectionTest } from "./ConnectionTest.tsx";
import { checkPacs, DEFAULT_STORE_PORT, fieldOfPath, pacsForm, samePacs, type FieldId, type PacsForm } from "./dicom-form.ts";
import { ErrorSummary } from "./ErrorSummary.tsx";
import { fieldProps, inputIdOf, NodeFields, useNodeLabels } from "./NodeFields.tsx";
import { SaveRow } from "./SaveRow.tsx";
import { useCardSave } from "./use-card-save.ts";
import { useFieldErrors } from "./use-field-errors.ts";

// The PACS card of the DICOM network (issue 29 §3): where "Fetch priors" on a patient's page finds the patient's
// earlier fields (host, port, the PACS's AE title and the station's), and how it retrieves them: C-GET, or C-MOVE to
// the storage SCP Isopter runs on the store port. Save, then "Test connection" with the settings as saved.

type Retrieve = PacsForm["retrieve"];

export function PacsCard({ saved }: { saved: DicomSettings }) {
  const { t } = useLingui();
  const prefix = useId();
  const headingId = useId();
  const retrieveHint = { get: useId(), move: useId() };
  const savedKey = JSON.stringify(saved.pacs);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `savedKey` stands for the saved PACS by value
  const base = useMemo(() => pacsForm(saved.pacs), [savedKey]);
  const [form, setForm] = useState<PacsForm>(base);
  const checked = checkPacs(form);
  const errors = useFieldErrors(checked.errors);
  const card = useCardSave(errors, (path) => fieldOfPath(path, "pacs"));
  const dirty = !samePacs(form, base);
  const nodeLabels = useNodeLabels("pacs");
  const labels: Record<string, string> = { ...nodeLabels, storePort: t`Store port` };
  const labelOf = (id: FieldId) => labels[id] ?? id;

  const change = (next: PacsForm) => {
    setForm(next);
    card.changed();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void card.save(checked.value === undefined ? undefined : { worklist: saved.worklist, pacs: checked.value }, (stored) =>
      setForm(pacsForm(stored.pacs)),
    );
  };
  const retrieveOptions: ReadonlyArray<{ value: Retrieve; label: string; hint: string }> = [
    { value: "get", label: "C-GET", hint: t`The PACS sends the fields back on the same connection.` },
    { value: "move", label: "C-MOVE", hint: t`The PACS sends the fields to the storage service Isopter runs on the store port.` },
  ];

  return (
    <section className="card dicom-card" aria-labelledby={headingId} data-testid="pacs-card">
      <div className="dicom-card-head">
        <h3 id={headingId}>{t`PACS`}</h3>
        <Toggle label={t`Use a PACS`} checked={form.on} onChange={(on) => change({ ...form, on })} />
      </div>
      <p className="field-hint dicom-intro">
        {t`"Fetch priors" on a patient's page asks the PACS for the patient's earlier visual fields (DICOM OPV) and imports those Isopter does not have.`}
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
              <legend>{t`Connection`}</legend>
              <NodeFields
                prefix={prefix}
                node={form.node}
                labels={nodeLabels}
                errors={errors}
                onChange={(node) => change({ ...form, node })}
              />
            </fieldset>
            <fieldset className="dicom-fieldset">
              <legend>{t`Retrieve with`}</legend>
              <div className="dicom-retrieve">
                {retrieveOptions.map((o) => (
                  <div key={o.value} className="import-check dicom-radio">
                    <input
                      id={`${prefix}-retrieve-${o.value}`}
                      type="radio"
                      name={`${prefix}-retrieve`}
                      value={o.value}
                      checked={form.retrieve === o.value}
                      aria-describedby={retrieveHint[o.value]}
                      onChange={() =>
                        change({ ...form, retrieve: o.value, storePort: form.storePort === "" ? DEFAULT_STORE_PORT : form.storePort })
                      }
                    />
                    <div>
                      <label htmlFor={`${prefix}-retrieve-${o.value}`}>{o.label}</label>
                      <div id={retrieveHint[o.value]} className="field-hint">
                        {o.hint}
                      </div>
                    </div>
                  </div>
                ))}
              </div>
              {form.retrieve === "move" && (
                <div className="dicom-grid">
                  <TextInput
                    {...fieldProps(prefix, "storePort", form.storePort, errors, (storePort) => change({ ...form, storePort }))}
                    label={labels.storePort!}
                    hint={t`Isopter listens on this port while it retrieves; the PACS must know the station AE title at this host and port.`}
                    required
                    inputMode="numeric"
                    autoComplete="off"
                  />
                </div>
              )}
            </fieldset>
          </>
        ) : (
          <p className="muted">
            {saved.pacs ? t`Off: saving removes the PACS, and "Fetch priors" is no longer offered.` : t`No PACS is set.`}
          </p>
        )}
        {(form.on || dirty || card.state !== "idle") && <SaveRow card={card} />}
      </form>
      {saved.pacs && (
        <div className="dicom-actions">
          <ConnectionTest peer="pacs" unsaved={dirty} />
        </div>
      )}
    </section>
  );
}
