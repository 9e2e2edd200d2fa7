// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { Provider, createStore } from "jotai";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { progressDisplay } from "../../web/ui/progress.ts";
import { ProgressBar } from "../../web/ui/ProgressBar.tsx";
import { Modal } from "../../web/ui/Modal.tsx";
import { TextInput } from "../../web/ui/TextInput.tsx";
import { SearchBox } from "../../web/ui/SearchBox.tsx";
import { Toggle } from "../../web/ui/Toggle.tsx";
import { Tooltip, tooltipDelayMs } from "../../web/ui/Tooltip.tsx";
import { Skeleton } from "../../web/ui/Skeleton.tsx";
import { Notifications } from "../../web/ui/Notifications.tsx";
import { notificationDefaultMs, notificationsAtom, pausableTimer } from "../../web/ui/notifications.ts";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("progress bar", () => {
  it("'Progress bar shows floor of percent, hides fill at 2% or less' (accounts seed §9)", () => {
    expect(progressDisplay(57.9)).toEqual({ label: 57, fill: 57.9 });
    expect(progressDisplay(2)).toEqual({ label: 2, fill: 0 });
    expect(progressDisplay(1.5)).toEqual({ label: 1, fill: 0 });
    expect(progressDisplay(2.01).fill).toBeCloseTo(2.01);
    expect(progressDisplay(150)).toEqual({ label: 100, fill: 100 });
    expect(progressDisplay(Number.NaN)).toEqual({ label: 0, fill: 0 });
  });
  it("exposes the floored value to assistive technology", () => {
    render(<ProgressBar percent={33.7} label="Test progress" />);
    const bar = screen.getByRole("progressbar", { name: "Test progress" });
    expect(bar.getAttribute("aria-valuenow")).toBe("33");
    expect(screen.getByTestId("progress-fill").style.width).toBe("33.7%");
  });
});

describe("modal", () => {
  it("closes with its close button, and on an outside click only when asked to", () => {
    const onClose = vi.fn();
    const { rerender } = render(
      <Modal title="Edit" onClose={onClose}>
        <p>body</p>
      </Modal>,
    );
    expect(screen.getByRole("dialog", { name: "Edit" })).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId("modal-backdrop"));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(
      <Modal title="Edit" onClose={onClose} closeOnOutsideClick closeButton={false}>
        <p>body</p>
      </Modal>,
    );
    expect(screen.queryByRole("button", { name: "Close" })).toBeNull();
    fireEvent.mouseDown(screen.getByTestId("modal-backdrop"));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
  it("closes on Escape and can fill the screen", () => {
    const onClose = vi.fn();
    render(
      <Modal title="Plot" onClose={onClose} fullScreen>
        <p>plot</p>
      </Modal>,
    );
    expect(screen.getByRole("dialog").className).toContain("modal-full");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
  });
});

function Controlled(props: { characterRule?: boolean; type?: string }) {
  const [value, setValue] = useState("");
  return <TextInput label="Name" value={value} onChange={setValue} required {...props} />;
}

describe("text input", () => {
  it("applies 'Special characters are not allowed.' while typing (accounts seed §5)", () => {
    render(<Controlled characterRule />);
    const input = screen.getByLabelText(/Name/);
    fireEvent.change(input, { target: { value: "Ana-María, 2_b" } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.change(input, { target: { value: "Ana<script>" } });
    expect(screen.getByRole("alert").textContent).toBe("Special characters are not allowed.");
    expect(input.getAttribute("aria-invalid")).toBe("true");
  });
  it("marks required fields and shows or hides a password", () => {
    render(<Controlled type="password" />);
    const input = screen.getByLabelText(/Name/) as HTMLInputElement;
    expect(input.getAttribute("aria-required")).toBe("true");
    expect(input.type).toBe("password");
    fireEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(input.type).toBe("text");
    fireEvent.click(screen.getByRole("button", { name: "Hide password" }));
    expect(input.type).toBe("password");
  });
});

const Box = () => {
  const [v, setV] = useState("smith");
  return <SearchBox label="Search patients" value={v} onChange={setV} />;
};

describe("search box and toggle", () => {
  it("clears the search with its clear button", () => {
    render(<Box />);
    const input = screen.getByRole("searchbox", { name: "Search patients" }) as HTMLInputElement;
    expect(input.value).toBe("smith");
    fireEvent.click(screen.getByRole("button", { name: "Clear search" }));
    expect(input.value).toBe("");
    expect(screen.queryByRole("button", { name: "Clear search" })).toBeNull();
  });
  it("toggle is a named switch", () => {
    const onChange = vi.fn();
    render(<Toggle label="Baseline" checked={false} onChange={onChange} />);
    fireEvent.click(screen.getByRole("switch", { name: "Baseline" }));
    expect(onChange).toHaveBeenCalledWith(true);
  });
});

describe("tooltip", () => {
  it("'Tooltip delay 200 ms' (accounts seed §9): appears only after the delay", () => {
    vi.useFakeTimers();
    render(
      <Tooltip text="Delete the patient">
        <button type="button">Delete</button>
      </Tooltip>,
    );
    const tip = screen.getByRole("tooltip", { hidden: true });
    fireEvent.mouseEnter(screen.getByRole("button", { name: "Delete" }).parentElement!);
    act(() => {
      vi.advanceTimersByTime(tooltipDelayMs - 1);
    });
    expect(tip.className).toBe("visually-hidden");
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(tip.className).toBe("tooltip");
    expect(screen.getByRole("button", { name: "Delete" }).getAttribute("aria-describedby")).toBe(tip.id);
  });
});

describe("loading placeholders", () => {
  it.each(["widgets", "fields", "tiles", "patient-cards", "blocks"] as const)("%s announce loading", (kind) => {
    render(<Skeleton kind={kind} count={2} />);
    const status = screen.getByRole("status");
    expect(status.getAttribute("aria-busy")).toBe("true");
    expect(status.textContent).toContain("Loading…");
    cleanup();
  });
});

describe("notifications", () => {
  it("'Notifications auto-dismiss after 5 s by default; hovering pauses.' (accounts seed §4)", () => {
    let now = 0;
    const timers: Array<{ at: number; fn: () => void; id: number }> = [];
    let nextId = 1;
    const clock = {
      now: () => now,
      set: (fn: () => void, ms: number) => {
        const id = nextId++;
        timers.push({ at: now + ms, fn, id });
        return id;
      },
      clear: (id: unknown) => {
        const i = timers.findIndex((x) => x.id === id);
        if (i >= 0) timers.splice(i, 1);
      },
    };
    const advance = (ms: number) => {
      now += ms;
      for (const t of [...timers])
        if (t.at <= now) {
          timers.splice(timers.indexOf(t), 1);
          t.fn();
        }
    };
    const done = vi.fn();
    const timer = pausableTimer(notificationDefaultMs, done, clock);
    advance(3000);
    timer.pause();
    advance(60_000);
    expect(done).not.toHaveBeenCalled();
    timer.resume();
    advance(1999);
    expect(done).not.toHaveBeenCalled();
    advance(1);
    expect(done).toHaveBeenCalledTimes(1);
  });
  it("renders the text and runs the optional action", () => {
    const store = createStore();
    const run = vi.fn();
    store.set(notificationsAtom, [{ id: 1, kind: "success", text: "Patient restored", durationMs: 5000, action: { label: "Open", run } }]);
    render(
      <Provider store={store}>
        <Notifications />
      </Provider>,
    );
    expect(screen.getByText("Patient restored")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    expect(run).toHaveBeenCalled();
    expect(store.get(notificationsAtom)).toHaveLength(0);
  });
  it("dismisses itself after 5 s", () => {
    vi.useFakeTimers();
    const store = createStore();
    store.set(notificationsAtom, [{ id: 2, kind: "info", text: "Saved", durationMs: notificationDefaultMs }]);
    render(
      <Provider store={store}>
        <Notifications />
      </Provider>,
    );
    act(() => {
      vi.advanceTimersByTime(notificationDefaultMs - 1);
    });
    expect(store.get(notificationsAtom)).toHaveLength(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(store.get(notificationsAtom)).toHaveLength(0);
  });
});
