// In-page instrumentation for bench/technician.bench.ts, installed with addInitScript before the app's own scripts on
// every navigation. Plain JavaScript read as text (tsx would wrap named functions in a helper the page lacks).
// window.__benchConfig = { lanes, cards } is prepended by the bench.
(() => {
  const config = window.__benchConfig;
  const now = () => performance.now();

  // ---- live events: every message the app's live socket receives, by type/operation --------------------------------
  const live = { messages: 0, bytes: 0, kinds: Object.create(null) };
  const NativeWebSocket = window.WebSocket;
  const kindOf = (text) => {
    const head = text.slice(0, 160);
    const type = /"type"\s*:\s*"([^"]*)"/.exec(head);
    const op = /"operation"\s*:\s*"([^"]*)"/.exec(head);
    return `${type ? type[1] : "?"}${op ? `/${op[1]}` : ""}`;
  };
  window.WebSocket = class CountedWebSocket extends NativeWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener("message", (e) => {
        if (typeof e.data !== "string") return;
        live.messages++;
        live.bytes += e.data.length;
        const k = kindOf(e.data);
        live.kinds[k] = (live.kinds[k] || 0) + 1;
      });
    }
  };

  // ---- React commits: which lanes rendered (issue 18 §3: only lanes whose devices changed) --------------------------
  // A stand-in for React DevTools' global hook, which react-dom calls after every commit in production builds too. Only
  // while a window is counting, each react-dom commit is walked the way DevTools walks it: a subtree whose children are
  // the same fibers as before was not rendered and is skipped; a function or class component fiber rendered in this
  // commit if it carries React's PerformedWork flag (1), or is new. A component belongs to a lane when it sits inside
  // the lane's <section data-testid="lane"> or renders that section as its one root (the lane component itself); a
  // lane counts one render per commit in which any of its components rendered. Outside a window the hook does nothing.
  const COMPOSITE = new Set([0, 1, 11, 15]); // FunctionComponent, ClassComponent, ForwardRef, SimpleMemoComponent
  const HOST = 5;
  let counting = null;
  let domRenderer = null;
  const laneOfHost = (f) =>
    f.tag === HOST && f.memoizedProps && f.memoizedProps["data-testid"] === "lane" ? f.memoizedProps["data-device-sn"] || "?" : null;
  const laneRootOf = (f) => {
    for (let c = f.child; c && c.sibling === null; c = c.child) if (c.tag === HOST) return laneOfHost(c);
    return null;
  };
  const note = (f, lane, touched) => {
    const sn = lane || laneRootOf(f);
    if (sn) {
      touched.add(sn);
      counting.components[sn] = (counting.components[sn] || 0) + 1;
    } else counting.outside++;
  };
  const visitMounted = (f, lane, touched) => {
    if (COMPOSITE.has(f.tag)) note(f, lane, touched);
    const inner = laneOfHost(f) || lane;
    for (let c = f.child; c; c = c.sibling) visitMounted(c, inner, touched);
  };
  const visitUpdated = (next, prev, lane, touched) => {
    if (COMPOSITE.has(next.tag) && (next.flags & 1) === 1) note(next, lane, touched);
    if (next.child === prev.child) return;
    const inner = laneOfHost(next) || lane;
    for (let c = next.child; c; c = c.sibling) {
      if (c.alternate) visitUpdated(c, c.alternate, inner, touched);
      else visitMounted(c, inner, touched);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject(internals) {
      const id = this.renderers.size + 1;
      this.renderers.set(id, internals);
      if (domRenderer === null && internals.rendererPackageName === "react-dom") domRenderer = id;
      return id;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberRoot(id, root) {
      if (!counting || id !== domRenderer) return;
      const next = root.current;
      const touched = new Set();
      if (next.alternate) visitUpdated(next, next.alternate, null, touched);
      else visitMounted(next, null, touched);
      counting.commits++;
      for (const sn of touched) counting.lanes[sn] = (counting.lanes[sn] || 0) + 1;
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
  };
  /** Lanes with a running card now (their headset streams a test). */
  const runningLanes = () =>
    [...document.querySelectorAll('[data-testid="lane"]')]
      .filter((l) => l.querySelector('[data-running="true"]'))
      .map((l) => l.getAttribute("data-device-sn"));

  // ---- long animation frames and long tasks, buffered from the start ------------------------------------------------
  const loafs = [];
  const longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        loafs.push({
          startTime: e.startTime,
          duration: e.duration,
          blockingDuration: e.blockingDuration,
          renderStart: e.renderStart,
          styleAndLayoutStart: e.styleAndLayoutStart,
          scripts: e.scripts.map((s) => ({
            invoker: s.invoker,
            invokerType: s.invokerType,
            sourceFunctionName: s.sourceFunctionName,
            sourceURL: s.sourceURL,
            duration: s.duration,
            forcedStyleAndLayoutDuration: s.forcedStyleAndLayoutDuration,
          })),
        });
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push({ startTime: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}

  // ---- first render: the lanes in view complete, then every card -------------------------------------------------
  // The view fills lanes out of sight during idle time (web/technician/lane-rendering.ts), so two milestones:
  // - first render ("view"): every lane in the DOM, and each lane inside the viewport with all its cards (none still a
  //   placeholder, aria-busy): what the technician sees is complete;
  // - complete ("all"): every lane with every card in the DOM (at least config.cards).
  // t0 is the navigation start (0) on a page load, or the moment of the click for an in-app navigation (arm()).
  // dom: the mutation that reached the milestone; frame: the next animation frame (style, layout and paint of that
  // frame follow it); painted: a task queued from that frame's callback, which runs once the frame has been produced.
  // Reading the lanes' rectangles forces a layout in the page's time: the figures include it (they err high, not low).
  let watch = null;
  const lanesNow = () => document.querySelectorAll('[data-testid="lane"]');
  const counts = () => ({
    lanes: lanesNow().length,
    cards: document.querySelectorAll('[data-testid="lane"] [data-card-id]').length,
  });
  const inViewComplete = () => {
    const lanes = lanesNow();
    if (lanes.length < config.lanes) return false;
    let seen = 0;
    for (const lane of lanes) {
      const r = lane.getBoundingClientRect();
      if (r.bottom <= 0 || r.top >= window.innerHeight) continue;
      if (lane.getAttribute("aria-busy") === "true") return false;
      seen++;
    }
    return seen > 0 && document.querySelector('[data-testid="lane"] [data-card-id]') !== null;
  };
  const stamp = (milestone, then) => {
    milestone.dom = now();
    milestone.seen = counts();
    requestAnimationFrame(() => {
      milestone.frame = now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        milestone.painted = now();
        then();
      };
      channel.port2.postMessage(0);
    });
  };
  const finish = (w) => {
    if (w.painted === null || w.all.painted === null) return;
    const devices = performance.getEntriesByType("resource").filter((r) => r.name.includes("/api/device/all") && r.responseEnd <= w.dom);
    const last = devices[devices.length - 1];
    w.devicesRequest = last
      ? { start: last.startTime, requestStart: last.requestStart, responseStart: last.responseStart, responseEnd: last.responseEnd }
      : null;
    w.done = true;
  };
  const check = () => {
    const w = watch;
    if (!w) return;
    if (w.dom === null && inViewComplete()) stamp(w, () => finish(w));
    if (w.dom !== null && w.all.dom === null) {
      const c = counts();
      if (c.lanes >= config.lanes && c.cards >= config.cards) stamp(w.all, () => finish(w));
    }
    if (w.all.dom !== null) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  const arm = (label, t0) => {
    watch = {
      label,
      t0,
      dom: null,
      frame: null,
      painted: null,
      seen: null,
      all: { dom: null, frame: null, painted: null, seen: null },
      devicesRequest: null,
      done: false,
    };
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-busy"] });
    check();
  };
  arm("load", 0);

  // ---- frames over a window: gaps between animation frames --------------------------------------------------------
  let frames = null;
  const loop = (ts) => {
    if (!frames) return;
    frames.times.push(ts);
    requestAnimationFrame(loop);
  };
  const startFrames = () => {
    frames = {
      start: now(),
      times: [],
      mutations: 0,
      liveAtStart: live.messages,
      kindsAtStart: { ...live.kinds },
      running: runningLanes(),
    };
    counting = { commits: 0, lanes: Object.create(null), components: Object.create(null), outside: 0 };
    frames.observer = new MutationObserver((records) => {
      frames.mutations += records.length;
    });
    frames.observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    requestAnimationFrame(loop);
  };
  const stopFrames = () => {
    const f = frames;
    frames = null;
    f.observer.disconnect();
    const counted = counting;
    counting = null;
    const lanesNowSn = [...lanesNow()].map((l) => l.getAttribute("data-device-sn"));
    const streaming = new Set([...f.running, ...runningLanes()]);
    const end = now();
    const gaps = [];
    for (let i = 1; i < f.times.length; i++) gaps.push(f.times[i] - f.times[i - 1]);
    const kinds = {};
    for (const k of Object.keys(live.kinds)) {
      const n = live.kinds[k] - (f.kindsAtStart[k] || 0);
      if (n > 0) kinds[k] = n;
    }
    const windowLoafs = loafs.filter((l) => l.startTime >= f.start - 1000 && l.startTime < end);
    // Each frame over 50 ms, and whether a long animation frame of this page overlaps it (the page's own work) or not
    // (the renderer waited: CPU contention from other processes, or the compositor).
    const slow = [];
    for (let i = 1; i < f.times.length; i++) {
      const a = f.times[i - 1];
      const b = f.times[i];
      if (b - a <= 50) continue;
      const loaf = windowLoafs.find((l) => l.startTime < b && l.startTime + l.duration > a);
      slow.push({ at: a, gap: b - a, loaf: loaf ? loaf.duration : null });
    }
    return {
      seconds: (end - f.start) / 1000,
      gaps,
      slow,
      mutations: f.mutations,
      liveMessages: live.messages - f.liveAtStart,
      kinds,
      loafs: loafs.filter((l) => l.startTime >= f.start && l.startTime < end),
      longtasks: longtasks.filter((l) => l.startTime >= f.start && l.startTime < end),
      counts: counts(),
      // Commits in the window and, per lane, the commits it rendered in and its component renders; streaming: lanes
      // with a running card at the window's start or end; hooked: whether react-dom reported its commits at all.
      renders: {
        hooked: domRenderer !== null,
        commits: counted.commits,
        outside: counted.outside,
        lanes: lanesNowSn.map((sn) => ({
          sn,
          streaming: streaming.has(sn),
          renders: counted.lanes[sn] || 0,
          components: counted.components[sn] || 0,
        })),
      },
    };
  };

  window.__bench = {
    arm,
    firstRender: () => watch,
    startFrames,
    stopFrames,
    live: () => ({ messages: live.messages, bytes: live.bytes, kinds: { ...live.kinds } }),
    loafsSince: (t) => loafs.filter((l) => l.startTime >= t),
  };
})();
