import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType } from "react";
import { useLingui } from "@lingui/react";
import { resolveText } from "../../core/plots/message.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { expectDraw } from "./draw-timing.ts";
import { plotTranslate } from "./plot-messages.ts";
import { sceneShapes, type Shape } from "./scene-shapes.ts";

// One plot on screen: a figure named by the scene's (translated) title for assistive technology, drawing the scene's
// shapes with Konva. Konva is a chunk of its own that only modules drawing plots import, so pages without plots
// never load it.

export interface ShapeRendererProps {
  /** The scene's own size; the renderer draws it `scale` times larger (its stage scaled, texts drawn at that size). */
  readonly width: number;
  readonly height: number;
  readonly scale?: number;
  readonly shapes: readonly Shape[];
  /** Called with the shapes once they are on screen (draw-timing.ts). */
  readonly onDrawn?: (shapes: readonly Shape[]) => void;
}

type Renderer = ComponentType<ShapeRendererProps>;
let konvaRenderer: Renderer | null = null;
let konvaLoad: Promise<Renderer> | null = null;

/** Konva's renderer, loaded once. */
export function loadKonvaRenderer(): Promise<Renderer> {
  konvaLoad ??= import("./KonvaScene.tsx").then((m) => (konvaRenderer = m.default));
  konvaLoad.catch(() => {
    konvaLoad = null;
  }); // the next plot tries again
  return konvaLoad;
}

// The chunk starts loading as soon as this module runs (a route that draws), so the download overlaps the
// measurements' fetch instead of following it.
if (typeof window !== "undefined" && typeof document !== "undefined") void loadKonvaRenderer().catch(() => undefined);

/**
 * The Konva renderer once loaded (null while loading). Deliberately not React.lazy: a Suspense boundary that resolves
 * is revealed on React's fallback throttle (about 300 ms), which alone would exceed the page's 200 ms drawing aim.
 */
function useKonvaRenderer(wanted: boolean): Renderer | null {
  const [renderer, setRenderer] = useState<Renderer | null>(() => konvaRenderer);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!wanted || renderer) return;
    let live = true;
    loadKonvaRenderer().then(
      (r) => {
        if (live) setRenderer(() => r);
      },
      (e: unknown) => {
        if (live) setError(() => e ?? new Error("Konva failed to load"));
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, renderer]);
  if (error) throw error; // to the route's error boundary, as a failed lazy import would
  return renderer;
}

/** The component that draws shapes; tests put a DOM renderer here (happy-dom has no canvas). */
export const ShapeRendererContext = createContext<ComponentType<ShapeRendererProps> | null>(null);

/** The translate function of the active language for core/plots texts. */
export function usePlotTranslate() {
  const { i18n } = useLingui();
  return useMemo(() => plotTranslate(i18n), [i18n, i18n.locale]);
}

export function SceneView({ scene, label, className, scale = 1 }: { scene: Scene; label?: string; className?: string; scale?: number }) {
  const translate = usePlotTranslate();
  const shapes = useMemo(() => sceneShapes(scene, { translate }), [scene, translate]);
  const provided = useContext(ShapeRendererContext);
  const konva = useKonvaRenderer(provided === null);
  const Renderer = provided ?? konva;
  // Each new set of shapes waits for its draw (draw-timing.ts) until the renderer reports it or the plot goes. A
  // renderer may report from its own layout effect, before this one (children's run first): then nothing waits.
  const drawn = useRef<readonly Shape[] | null>(null);
  const waiting = useRef<{ shapes: readonly Shape[]; done: () => void } | null>(null);
  useLayoutEffect(() => {
    if (drawn.current === shapes) return;
    const done = expectDraw();
    waiting.current = { shapes, done };
    return () => {
      waiting.current = null;
      done();
    };
  }, [shapes]);
  const onDrawn = useCallback((s: readonly Shape[]) => {
    drawn.current = s;
    if (waiting.current?.shapes === s) waiting.current.done();
  }, []);
  const name = label ?? (scene.title ? resolveText(scene.title, translate) : scene.plot);
  // Drawn `scale` times its scene's size (the result page fits its plots to the width, ResultDisplay): whole pixels,
  // rounded down so a row of fitted plots never exceeds its width, the aspect ratio kept.
  const width = scale === 1 ? scene.width : Math.floor(scene.width * scale);
  const height = scale === 1 ? scene.height : Math.floor(scene.height * scale);
  return (
    <figure
      className={`plot${className ? ` ${className}` : ""}`}
      role="img"
      aria-label={name}
      data-plot={scene.plot}
      style={{ width, height }}
    >
      {Renderer ? (
        <Renderer width={scene.width} height={scene.height} scale={scale} shapes={shapes} onDrawn={onDrawn} />
      ) : (
        <div className="skeleton plot-pending" style={{ width, height }} />
      )}
    </figure>
  );
}
