import { useSearchParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { REVIEW_FLAG_KINDS, type ReviewFlagKind, type ReviewState } from "../../../core/model/contract/index.ts";
import { useRead } from "../../state/use-read.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Select } from "../../ui/Select.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { useFlagNames } from "./flag-words.ts";
import { ReviewItemRow } from "./ReviewItemRow.tsx";
import { isReviewState, REVIEW_PAGE_SIZE, REVIEW_STATES } from "./review-item.ts";

// The review queue (issue 31 §2): new home results and missed sessions, sorted by need on the server (core/home
// orderByNeed), filtered by flag and state in the address (/review?flag=outlier&state=new), so the home page's counts
// link to one filter, and paged.

const isFlag = (s: string | null): s is ReviewFlagKind => (REVIEW_FLAG_KINDS as readonly (string | null)[]).includes(s);

export default function ReviewQueuePage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const flagParam = params.get("flag");
  const stateParam = params.get("state");
  const flag = isFlag(flagParam) ? flagParam : null;
  const state: ReviewState = isReviewState(stateParam) ? stateParam : "new";
  const page = Math.max(0, Number.parseInt(params.get("page") ?? "0", 10) || 0);
  const queue = useRead("review.queue", { query: { ...(flag ? { flag } : {}), state, page, quantity: REVIEW_PAGE_SIZE } });
  const flagNames = useFlagNames();
  const stateNames: Record<ReviewState, string> = { new: t`To review`, reviewed: t`Reviewed` };
  const choose = (key: "flag" | "state" | "page", value: string) => {
    const next = new URLSearchParams(params);
    if (value === "all" || value === "0") next.delete(key);
    else next.set(key, value);
    if (key !== "page") next.delete("page");
    setParams(next, { replace: true });
  };
  const total = queue.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / REVIEW_PAGE_SIZE));
  const shownFrom = page * REVIEW_PAGE_SIZE + 1;
  const shownTo = Math.min(total, (page + 1) * REVIEW_PAGE_SIZE);

  return (
    <section className="card stack" aria-labelledby="review-queue">
      <h2 id="review-queue" style={{ margin: 0 }}>{t`Home results, most urgent first`}</h2>
      <div className="row" style={{ gap: "var(--space-4)", flexWrap: "wrap" }}>
        <Select
          label={t`Flag`}
          value={flag ?? "all"}
          options={[{ value: "all", label: t`All flags` }, ...REVIEW_FLAG_KINDS.map((k) => ({ value: k, label: flagNames[k] }))]}
          onChange={(v) => choose("flag", v)}
        />
        <Select
          label={t`State`}
          value={state}
          options={REVIEW_STATES.map((s) => ({ value: s, label: stateNames[s] }))}
          onChange={(v) => choose("state", v)}
        />
      </div>
      {queue.status === "loading" && <Skeleton kind="fields" count={3} />}
      {queue.status === "error" && (
        <div className="alert alert-error" role="alert">{t`The review queue cannot be displayed. Try again later.`}</div>
      )}
      {queue.status === "success" && queue.data.items.length === 0 && (
        <EmptyState title={t`Nothing to review`} hint={t`Home results appear here as the lent headsets upload them.`} />
      )}
      {queue.status === "success" && queue.data.items.length > 0 && (
        <>
          <table className="table">
            <thead>
              <tr>
                <th>{t`Patient`}</th>
                <th>{t`Eye`}</th>
                <th>{t`Date`}</th>
                <th>{t`Flags`}</th>
                <th>
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {queue.data.items.map((item) => (
                <ReviewItemRow key={item.id} item={item} />
              ))}
            </tbody>
          </table>
          {pages > 1 && (
            <div className="row">
              <span className="spacer muted">{t`${shownFrom}–${shownTo} of ${total}`}</span>
              <button type="button" className="btn" disabled={page === 0} onClick={() => choose("page", String(page - 1))}>
                {t`Previous page`}
              </button>
              <button type="button" className="btn" disabled={page + 1 >= pages} onClick={() => choose("page", String(page + 1))}>
                {t`Next page`}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
