import { useEffect, useRef, useState } from "react";
import { CacheKey } from "../../core/client/cache-keys.ts";
import { useCache, useClient } from "./client.ts";

/**
 * The patient search list core/client keeps (POST patient/search), paged as it scrolls: "paging continues while
 * remaining > 0". The next page loads when the element given `sentinel` (the list's last item) scrolls into view, or
 * on `loadMore` (a button there). `failed`: the search or a further page could not be read, shown even while an
 * earlier answer stays on screen. Used by the home page's search and the measurement form's patient picker.
 */
export function usePatientSearch(filter: { readonly name: string; readonly birthdate: string | null }) {
  const client = useClient();
  const search = useCache(CacheKey.PatientSearch, filter);
  const results = search.data ?? null;
  const [moreFailed, setMoreFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const sentinel = useRef<HTMLLIElement>(null);

  const loadMore = async () => {
    if (!results || results.remaining <= 0 || loadingMore) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      await client.patients.nextSearchPage(filter);
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  };

  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    });
    observer.observe(node);
    return () => observer.disconnect();
  });

  return { results, failed: search.error !== undefined || moreFailed, loadingMore, loadMore, sentinel };
}
