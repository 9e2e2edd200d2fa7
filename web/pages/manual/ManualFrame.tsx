import { useOutletContext } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { manualUrl, type ManualDocument } from "./manual-document.ts";

export function ManualFrame({ part }: { part: 1 | 2 }) {
  const { t } = useLingui();
  const doc = useOutletContext<ManualDocument>();
  const url = manualUrl(doc, part);
  return (
    <div className="stack">
      <iframe
        title={part === 1 ? t`User manual, part 1` : t`User manual, part 2`}
        src={url}
        style={{ width: "100%", height: "70vh", border: "1px solid var(--grey-200)", borderRadius: 6, background: "#fff" }}
      />
      <a href={url} target="_blank" rel="noreferrer">{t`Open the manual in a new tab`}</a>
    </div>
  );
}
