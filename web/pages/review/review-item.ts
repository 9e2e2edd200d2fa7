import type { ReviewState } from "../../../core/model/contract/index.ts";

// The review queue's states as the filter offers them (review.queue's state): not yet reviewed, or reviewed.
export const REVIEW_STATES: readonly ReviewState[] = ["new", "reviewed"];
export const isReviewState = (s: string | null): s is ReviewState => (REVIEW_STATES as readonly (string | null)[]).includes(s);

/** review.queue's page size here (the contract allows up to REVIEW_PAGE_MAX). */
export const REVIEW_PAGE_SIZE = 50;
