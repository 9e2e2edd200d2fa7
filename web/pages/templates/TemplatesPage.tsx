import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Template, TemplateFields } from "../../../core/model/template.ts";
import { CacheKey } from "../../../core/client/index.ts";
import type { Variant } from "../../../core/rules/form-context.ts";
import { useClient, useCache } from "../../state/client.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useNotify } from "../../ui/notifications.ts";
import { useTitle } from "../../ui/useTitle.ts";
import { ScheduleDialog } from "./ScheduleDialog.tsx";
import { TemplateFormDialog } from "./TemplateFormDialog.tsx";
import { TestTypeIcon, useTestTypeNames } from "./TestTypeIcon.tsx";

// Measurement templates (our design: the seeds' page is a stub; issue #8 part 7 makes it a feature): a named list of
// tests, shared in the organisation, that can be created, edited, copied, deleted and scheduled for a patient.

type Editing = { kind: "create" } | { kind: "edit"; template: Template };

export default function TemplatesPage() {
  const { t } = useLingui();
  useTitle(t`Templates`);
  const client = useClient();
  const notify = useNotify();
  const templates = useCache(CacheKey.Templates, {});
  const organisation = useCache(CacheKey.CurrentOrganisation, {});
  // An organisation with the multi-tests plugin schedules appointments (the newer variant); others measurements.
  const variant: Variant = organisation.data?.multiTests ? "newer" : "older";
  const typeNames = useTestTypeNames();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [scheduling, setScheduling] = useState<Template | null>(null);
  const deletingName = deleting?.name ?? "";

  const save = async (fields: TemplateFields) => {
    await client.templates.save(editing?.kind === "edit" ? editing.template.id : null, fields);
    setEditing(null);
    const name = fields.name;
    notify({ kind: "success", text: t`The template ${name} was saved.` });
  };
  const copy = async (template: Template) => {
    try {
      const created = await client.templates.copy(template.id);
      const name = created.name;
      notify({ kind: "success", text: t`The template was copied as ${name}.` });
    } catch {
      notify({ kind: "error", text: t`The template could not be copied. Try again later.` });
    }
  };
  const remove = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await client.templates.remove(deleting.id);
      notify({ kind: "success", text: t`The template was deleted.` });
    } catch {
      notify({ kind: "error", text: t`The template could not be deleted. Try again later.` });
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
  };

  return (
    <div className="page stack">
      <div className="row">
        <h1>{t`Templates`}</h1>
        <span className="spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ kind: "create" })}>{t`New template`}</button>
      </div>
      {templates.status === "loading" && <Skeleton kind="fields" count={3} />}
      {templates.status === "error" && <div className="alert alert-error" role="alert">{t`The templates cannot be shown.`}</div>}
      {templates.status === "success" && templates.data.length === 0 && (
        <EmptyState title={t`No templates yet`} hint={t`A template is a set of tests you schedule together. Create one to start.`} />
      )}
      {templates.status === "success" && templates.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>{t`Name`}</th>
              <th>{t`Tests`}</th>
              <th>
                <span className="visually-hidden">{t`Actions`}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {templates.data.map((template) => {
              const name = template.name;
              const count = template.tests.length;
              return (
                <tr key={template.id} data-testid="template-row">
                  <td>{template.name}</td>
                  <td>
                    <span className="row" role="img" aria-label={t`Tests: ${count}`}>
                      {template.tests.map((test, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a read-only row of stateless icons, redrawn whole when the template changes
                        <TestTypeIcon key={i} type={test.type} label={typeNames[test.type]} />
                      ))}
                    </span>
                  </td>
                  <td>
                    <div className="row">
                      <button
                        type="button"
                        className="btn btn-primary btn-sm"
                        aria-label={t`Schedule ${name}`}
                        onClick={() => setScheduling(template)}
                      >{t`Schedule`}</button>
                      <button
                        type="button"
                        className="btn btn-sm"
                        aria-label={t`Edit ${name}`}
                        onClick={() => setEditing({ kind: "edit", template })}
                      >{t`Edit`}</button>
                      <button
                        type="button"
                        className="btn btn-sm"
                        aria-label={t`Copy ${name}`}
                        onClick={() => void copy(template)}
                      >{t`Copy`}</button>
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        aria-label={t`Delete ${name}`}
                        onClick={() => setDeleting(template)}
                      >{t`Delete`}</button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {editing && (
        <TemplateFormDialog
          template={editing.kind === "edit" ? editing.template : null}
          variant={variant}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t`Delete ${deletingName}?`}
          confirmLabel={t`Delete template`}
          danger
          busy={deleteBusy}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove()}
        >
          <p>{t`The template is removed for everyone in the organisation. Tests already scheduled from it stay.`}</p>
        </ConfirmDialog>
      )}
      {scheduling && (
        <ScheduleDialog
          template={scheduling}
          variant={variant}
          onClose={() => setScheduling(null)}
          onDone={(count) => {
            const name = scheduling.name;
            notify({ kind: "success", text: t`Tests scheduled from ${name}: ${count}.` });
            setScheduling(null);
          }}
        />
      )}
    </div>
  );
}
