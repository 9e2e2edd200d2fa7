import { useState, type ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { useDateFormat } from "../../i18n/format.ts";
import type { LifecycleItem } from "../../../core/client/index.ts";
import { useClient, useCache } from "../../state/client.ts";
import { useNotify } from "../../ui/notifications.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";

interface BinItem {
  id: string;
  trashedAt: string | null;
}

/**
 * One bin tab: "Each row has restore and permanent-delete (confirm dialog); empty-state message when none."
 * "Restoring refetches and notifies with an action to open the item." (accounts seed §2, §4) Restore and delete are
 * core/client's lifecycle commands (which read the lists again); the tab says what happened in its own words.
 */
type TrashKey = "trashedPatients" | "trashedMeasurements" | "trashedAppointments";
const binItem: Record<TrashKey, LifecycleItem> = {
  trashedPatients: "patient",
  trashedMeasurements: "measurement",
  trashedAppointments: "appointment",
};

export function BinList<T extends BinItem>({
  cacheKey,
  describe,
  open,
  emptyTitle,
  restoredText,
  deleteQuestion,
}: {
  /** The core/client cache of this tab: live events from other users keep it current. */
  cacheKey: TrashKey;
  describe: (item: T) => ReactNode;
  open: (item: T) => void;
  emptyTitle: string;
  restoredText: string;
  deleteQuestion: string;
}) {
  const { t } = useLingui();
  const notify = useNotify();
  const format = useDateFormat();
  const client = useClient();
  const list = useCache(cacheKey, {});
  const items = list.data as ReadonlyArray<T> | undefined;
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  if (list.status === "error")
    return <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>;
  if (!items) return <Skeleton kind="fields" count={4} />;
  if (items.length === 0)
    return <EmptyState title={emptyTitle} hint={t`Deleted items appear here until they are restored or deleted for good.`} />;

  const doRestore = async (item: T) => {
    if (await client.lifecycle(binItem[cacheKey], "restore", item.id, { notices: false }))
      notify({ kind: "success", text: restoredText, action: { label: t`Open`, run: () => open(item) } });
    else notify({ kind: "error", text: t`The item could not be restored. Try again later.` });
  };
  const doDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    const done = await client.lifecycle(binItem[cacheKey], "delete", deleting.id, { notices: false });
    if (done) notify({ kind: "success", text: t`Deleted for good.` });
    else notify({ kind: "error", text: t`The item could not be deleted. Try again later.` });
    setBusy(false);
    setDeleting(null);
  };

  return (
    <>
      <table className="table">
        <thead>
          <tr>
            <th>{t`Item`}</th>
            <th>{t`Deleted on`}</th>
            <th>
              <span className="visually-hidden">{t`Actions`}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <td>{describe(item)}</td>
              <td className="num">{item.trashedAt ? format.dateTime(item.trashedAt) : "–"}</td>
              <td>
                <div className="row" style={{ justifyContent: "flex-end" }}>
                  <button type="button" className="btn" onClick={() => void doRestore(item)}>{t`Restore`}</button>
                  <button type="button" className="btn btn-danger" onClick={() => setDeleting(item)}>{t`Delete for good`}</button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deleting && (
        <ConfirmDialog
          title={deleteQuestion}
          confirmLabel={t`Delete for good`}
          danger
          busy={busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void doDelete()}
        >
          <p>{t`This cannot be undone.`}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
