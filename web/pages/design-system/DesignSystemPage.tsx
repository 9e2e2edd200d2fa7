import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { useNotify } from "../../ui/notifications.ts";
import { ProgressBar } from "../../ui/ProgressBar.tsx";
import { SearchBox } from "../../ui/SearchBox.tsx";
import { Select } from "../../ui/Select.tsx";
import { Skeleton, type SkeletonKind } from "../../ui/Skeleton.tsx";
import { TextInput } from "../../ui/TextInput.tsx";
import { Toggle } from "../../ui/Toggle.tsx";
import { Tooltip } from "../../ui/Tooltip.tsx";
import { Zoom, useZoomView } from "../../ui/Zoom.tsx";
import { useTitle } from "../../ui/useTitle.ts";

const skeletons: SkeletonKind[] = ["widgets", "fields", "tiles", "patient-cards", "blocks"];

/** Every design-system component with its states, for review and for the accessibility checks. */
export default function DesignSystemPage() {
  const { t } = useLingui();
  useTitle(t`Design system`);
  const notify = useNotify();
  const [modal, setModal] = useState<null | "plain" | "outside" | "full">(null);
  const [name, setName] = useState("Ana <b>");
  const [password, setPassword] = useState("");
  const [choice, setChoice] = useState<"a" | "b">("a");
  const [search, setSearch] = useState("");
  const [on, setOn] = useState(true);
  const [percent, setPercent] = useState(42.7);
  const skeletonNames: Record<SkeletonKind, string> = {
    widgets: t`Widgets`,
    fields: t`Fields`,
    tiles: t`Tiles`,
    "patient-cards": t`Patient cards`,
    blocks: t`Blocks`,
  };

  return (
    <div className="page stack">
      <h1>{t`Design system`}</h1>
      <section className="card" aria-labelledby="ds-modal">
        <h2 id="ds-modal">{t`Modal`}</h2>
        <div className="row">
          <button type="button" className="btn" onClick={() => setModal("plain")}>{t`Open a modal with a close button`}</button>
          <button
            type="button"
            className="btn"
            onClick={() => setModal("outside")}
          >{t`Open a modal that closes on an outside click`}</button>
          <button type="button" className="btn" onClick={() => setModal("full")}>{t`Open a full-screen modal`}</button>
        </div>
        {modal && (
          <Modal
            title={t`Example modal`}
            onClose={() => setModal(null)}
            closeButton={modal !== "outside"}
            closeOnOutsideClick={modal === "outside"}
            fullScreen={modal === "full"}
            actions={<button type="button" className="btn btn-primary" onClick={() => setModal(null)}>{t`Done`}</button>}
          >
            <p>{t`Press Escape or use the buttons to close.`}</p>
          </Modal>
        )}
      </section>
      <section className="card" aria-labelledby="ds-inputs">
        <h2 id="ds-inputs">{t`Inputs`}</h2>
        <div className="grid-2">
          <div>
            <TextInput label={t`Text with the character rule`} required characterRule value={name} onChange={setName} />
            <TextInput label={t`Password`} type="password" value={password} onChange={setPassword} autoComplete="new-password" />
          </div>
          <div>
            <Select<"a" | "b">
              label={t`Select`}
              value={choice}
              onChange={setChoice}
              options={[
                { value: "a", label: t`First option` },
                { value: "b", label: t`Second option` },
              ]}
            />
            <SearchBox label={t`Search`} placeholder={t`Search`} value={search} onChange={setSearch} />
            <Toggle label={t`Toggle`} checked={on} onChange={setOn} />
          </div>
        </div>
      </section>
      <section className="card" aria-labelledby="ds-feedback">
        <h2 id="ds-feedback">{t`Feedback`}</h2>
        <div className="row">
          <Tooltip text={t`Tooltips appear after 200 ms.`}>
            <button type="button" className="btn">{t`Hover or focus me`}</button>
          </Tooltip>
          <button
            type="button"
            className="btn"
            onClick={() => notify({ kind: "info", text: t`A notification that closes after 5 seconds.` })}
          >{t`Show a notification`}</button>
          <button
            type="button"
            className="btn"
            onClick={() =>
              notify({ kind: "success", text: t`A notification with an action.`, action: { label: t`Undo`, run: () => undefined } })
            }
          >{t`Show a notification with an action`}</button>
        </div>
        <div className="row" style={{ marginTop: "var(--space-4)" }}>
          {[0, 2, 2.5, percent, 100].map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of examples that never reorders (two share a value)
            <div key={i} style={{ width: 180 }}>
              <ProgressBar percent={p} label={t`Progress example ${i + 1}`} />
            </div>
          ))}
          <button type="button" className="btn" onClick={() => setPercent((p) => (p + 13.3) % 100)}>{t`Advance`}</button>
        </div>
      </section>
      <section className="card" aria-labelledby="ds-zoom">
        <h2 id="ds-zoom">{t`Zoom`}</h2>
        <Zoom label={t`Zoomable example`}>
          <ZoomExample />
        </Zoom>
      </section>
      <section className="card" aria-labelledby="ds-empty">
        <h2 id="ds-empty">{t`Empty state`}</h2>
        <EmptyState title={t`Nothing here yet`} hint={t`A hint tells the user what to do next.`} />
      </section>
      <section className="card" aria-labelledby="ds-loading">
        <h2 id="ds-loading">{t`Loading placeholders`}</h2>
        {skeletons.map((k) => (
          <div key={k} style={{ marginBottom: "var(--space-4)" }}>
            <h3>{skeletonNames[k]}</h3>
            <Skeleton kind={k} count={k === "blocks" ? 1 : 3} />
          </div>
        ))}
      </section>
    </div>
  );
}

/** What a zoom wrapper holds draws itself at the zoom it reads (an SVG by its size, a plot by its Konva stage). */
function ZoomExample() {
  const { t } = useLingui();
  const zoom = useZoomView()?.zoom ?? 1;
  return (
    <svg width={240 * zoom} height={120 * zoom} viewBox="0 0 240 120" role="img" aria-label={t`Example plot`}>
      <rect x="10" y="10" width="220" height="100" fill="var(--accent-soft)" stroke="var(--accent)" />
      <circle cx="120" cy="60" r="30" fill="var(--accent)" />
    </svg>
  );
}
