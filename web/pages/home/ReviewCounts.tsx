import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { REVIEW_FLAG_KINDS } from "../../../core/model/contract/index.ts";
import { useRead } from "../../state/use-read.ts";
import { useFlagNames } from "../review/flag-words.ts";

/** "The home page shows the count per flag" (issue 31 §2): home results waiting for review, each count a link to the
 * queue filtered by its flag. */
export function ReviewCounts() {
  const { t } = useLingui();
  const counts = useRead("review.counts", {});
  const names = useFlagNames();
  const failed = counts.data?.triageFailed ?? 0;
  return (
    <section className="card stack" aria-labelledby="review-counts">
      <h2 id="review-counts" style={{ margin: 0 }}>{t`Home results to review`}</h2>
      {counts.status === "error" && <p className="muted">{t`The counts cannot be displayed. Try again later.`}</p>}
      {counts.status !== "error" && (
        <ul
          className="review-counts"
          style={{ listStyle: "none", margin: 0, padding: 0, display: "flex", flexWrap: "wrap", gap: "var(--space-3)" }}
        >
          {REVIEW_FLAG_KINDS.map((kind) => (
            <li key={kind}>
              <Link className="btn" to={`/review?flag=${kind}`} data-flag-count={kind}>
                {names[kind]}: <span className="num">{counts.data ? String(counts.data[kind]) : "…"}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {failed > 0 && <Link to="/review">{t`${failed} could not be checked automatically`}</Link>}
    </section>
  );
}
