import { useEffect, useRef } from "react";
import { useAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { notificationsAtom, pausableTimer, type Notification } from "./notifications.ts";

function Toast({ n, dismiss }: { n: Notification; dismiss: (id: number) => void }) {
  const { t } = useLingui();
  const timer = useRef<ReturnType<typeof pausableTimer> | undefined>(undefined);
  useEffect(() => {
    timer.current = pausableTimer(n.durationMs, () => dismiss(n.id));
    return () => timer.current?.stop();
  }, [n.id, n.durationMs, dismiss]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the role is alert or status; hover and focus only pause the toast's timer
    <div
      className={`toast toast-${n.kind}`}
      role={n.kind === "error" ? "alert" : "status"}
      onMouseEnter={() => timer.current?.pause()}
      onMouseLeave={() => timer.current?.resume()}
      onFocus={() => timer.current?.pause()}
      onBlur={() => timer.current?.resume()}
    >
      <span className="spacer">{n.text}</span>
      {n.action && (
        <button
          type="button"
          className="btn btn-link"
          onClick={() => {
            n.action!.run();
            dismiss(n.id);
          }}
        >
          {n.action.label}
        </button>
      )}
      <button type="button" className="btn-close" aria-label={t`Dismiss notification`} onClick={() => dismiss(n.id)}>
        ×
      </button>
    </div>
  );
}

export function Notifications() {
  const [list, setList] = useAtom(notificationsAtom);
  const dismiss = useRef((id: number) => setList((l) => l.filter((x) => x.id !== id))).current;
  return (
    <div className="toasts" aria-live="polite">
      {list.map((n) => (
        <Toast key={n.id} n={n} dismiss={dismiss} />
      ))}
    </div>
  );
}
