import { useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Eye, TestType } from "../../../core/model/enums.ts";
import type { Template, TemplateFields, TemplateTest } from "../../../core/model/template.ts";
import { applyConfigChange, type ConfigChange } from "../../../core/rules/config-reducer.ts";
import type { Variant } from "../../../core/rules/form-context.ts";
import { eyeNames } from "../../i18n/names.ts";
import { PerimetryFields } from "../../technician/PerimetryFields.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { Select } from "../../ui/Select.tsx";
import { TextInput } from "../../ui/TextInput.tsx";
import { canSaveTemplate, fromMeasurementConfig, newTemplateTest, templateContext, toMeasurementConfig } from "./template-tests.ts";
import { TestTypeIcon, useTestTypeNames } from "./TestTypeIcon.tsx";

const testTypes: TestType[] = [TestType.Perimetry, TestType.Amsler, TestType.Acuity, TestType.ColorBlindness];
const simpleEyes = [Eye.Right, Eye.Left, Eye.Both] as const;

/** Create (no template) or edit a template: its name and its tests, perimetry configured by the core/rules form. */
export function TemplateFormDialog({
  template,
  variant,
  onSave,
  onClose,
}: {
  template: Template | null;
  variant: Variant;
  onSave: (fields: TemplateFields) => Promise<void>;
  onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const typeNames = useTestTypeNames();
  const [name, setName] = useState(template?.name ?? "");
  const [tests, setTests] = useState<TemplateTest[]>(() =>
    template ? [...template.tests] : [newTemplateTest(TestType.Perimetry, variant)],
  );
  // Each test keeps its key when another is removed, so its fields' state never passes to the test after it.
  const nextKey = useRef(0);
  const [keys, setKeys] = useState<number[]>(() => tests.map(() => nextKey.current++));
  const [adding, setAdding] = useState<TestType>(TestType.Perimetry);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const fields: TemplateFields = { name: name.trim(), tests };
  const context = templateContext(variant);

  const replace = (index: number, test: TemplateTest) => setTests((list) => list.map((x, i) => (i === index ? test : x)));
  const remove = (index: number) => {
    setTests((list) => list.filter((_, i) => i !== index));
    setKeys((list) => list.filter((_, i) => i !== index));
  };
  const add = (type: TestType) => {
    const key = nextKey.current++;
    setTests((list) => [...list, newTemplateTest(type, variant)]);
    setKeys((list) => [...list, key]);
  };
  const changePerimetry = (index: number, c: ConfigChange) =>
    setTests((list) =>
      list.map((x, i) => (i === index ? fromMeasurementConfig(applyConfigChange(toMeasurementConfig(x, variant), c, context)) : x)),
    );

  const save = async () => {
    if (!canSaveTemplate(fields) || saving) return;
    setSaving(true);
    setFailed(false);
    try {
      await onSave(fields);
    } catch {
      setFailed(true);
      setSaving(false);
    }
  };

  const title = template ? t`Edit template` : t`New template`;
  return (
    <Modal
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>{t`Cancel`}</button>
          <button type="button" className="btn btn-primary" disabled={!canSaveTemplate(fields) || saving} onClick={() => void save()}>
            {saving ? t`Saving…` : t`Save template`}
          </button>
        </>
      }
    >
      <form
        className="stack"
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextInput label={t`Template name`} required characterRule value={name} maxLength={100} onChange={setName} />
        <ol className="stack template-tests" aria-label={t`Tests of the template`}>
          {tests.map((test, i) => {
            const typeName = typeNames[test.type];
            const position = i + 1;
            return (
              <li key={keys[i]} className="card" aria-label={t`Test ${position}: ${typeName}`}>
                <div className="row">
                  <TestTypeIcon type={test.type} label={typeName} />
                  <strong>{typeName}</strong>
                  <span className="spacer" />
                  <button
                    type="button"
                    className="btn btn-sm"
                    aria-label={t`Remove test ${position}`}
                    onClick={() => remove(i)}
                  >{t`Remove`}</button>
                </div>
                {test.type === TestType.Perimetry ? (
                  <div className="mform">
                    <PerimetryFields config={toMeasurementConfig(test, variant)} context={context} change={(c) => changePerimetry(i, c)} />
                  </div>
                ) : (
                  <Select
                    label={t`Eye`}
                    value={String(test.eye ?? Eye.Both)}
                    options={simpleEyes.map((e) => ({ value: String(e), label: i18n._(eyeNames[e]) }))}
                    onChange={(v) => replace(i, { ...test, eye: Number(v) as Eye })}
                  />
                )}
              </li>
            );
          })}
        </ol>
        {tests.length === 0 && <p className="field-error" role="alert">{t`A template needs at least one test.`}</p>}
        <div className="row">
          <Select<TestType>
            label={t`Test type`}
            value={adding}
            options={testTypes.map((type) => ({ value: type, label: typeNames[type] }))}
            onChange={setAdding}
          />
          <button type="button" className="btn" onClick={() => add(adding)}>{t`Add test`}</button>
        </div>
        {failed && <p className="alert alert-error" role="alert">{t`The template could not be saved. Try again later.`}</p>}
      </form>
    </Modal>
  );
}
