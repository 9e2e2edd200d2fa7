import { useCallback, useEffect, useRef, useState } from "react";

export type QueryState<T> =
  | { status: "loading"; data?: undefined; error?: undefined }
  | { status: "error"; data?: undefined; error: unknown }
  | { status: "success"; data: T; error?: undefined };

/**
 * Runs `load` when `key` changes and keeps the latest answer; `reload` runs it again (after a change elsewhere).
 * Answers that arrive after a newer request started are dropped.
 */
export function useQuery<T>(key: string, load: () => Promise<T>): QueryState<T> & { reload: () => void; set: (data: T) => void } {
  const [state, setState] = useState<QueryState<T>>({ status: "loading" });
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const run = useCallback((quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setState({ status: "loading" });
    loader.current().then(
      (data) => { if (mine === generation.current) setState({ status: "success", data }); },
      (error: unknown) => { if (mine === generation.current) setState({ status: "error", error }); },
    );
  }, []);
  useEffect(() => { run(false); }, [key, run]);
  return { ...state, reload: () => run(true), set: (data: T) => setState({ status: "success", data }) };
}
