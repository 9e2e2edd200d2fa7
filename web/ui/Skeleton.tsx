import { useLingui } from "@lingui/react/macro";

export type SkeletonKind = "widgets" | "fields" | "tiles" | "patient-cards" | "blocks";
const className: Record<SkeletonKind, string> = {
  widgets: "sk-widget",
  fields: "sk-field",
  tiles: "sk-tile",
  "patient-cards": "sk-card",
  blocks: "sk-block",
};

/** Loading placeholders shaped like what is coming (skeletons instead of spinners, design/ui.md). */
export function Skeleton({ kind, count = 3 }: { kind: SkeletonKind; count?: number }) {
  const { t } = useLingui();
  const grid = kind === "tiles" || kind === "widgets";
  return (
    <div role="status" aria-busy="true" className={grid ? "sk-grid" : undefined} data-kind={kind}>
      <span className="visually-hidden">{t`Loading…`}</span>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, the position is the identity
        <div key={i} className={`skeleton ${className[kind]}`} aria-hidden="true" />
      ))}
    </div>
  );
}
