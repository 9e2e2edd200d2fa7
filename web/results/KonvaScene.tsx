import { useCallback, useLayoutEffect, useRef } from "react";
import type Konva from "konva";
// The core build: Stage, Layer and Shape are all a plot needs (no Text, Rect, ... classes to download and parse).
import { Layer, Shape, Stage } from "react-konva/lib/ReactKonvaCore";
import { drawShapes } from "./canvas-draw.ts";
import type { Shape as SceneShape } from "./scene-shapes.ts";

// The react-konva renderer of a scene's shapes. Loaded on its own by SceneView so routes that draw no plot never
// download Konva. One Stage per scene, one Layer without hit testing (plots are not interactive; Konva then skips its
// hit canvas), and one custom Shape whose sceneFunc draws every primitive (canvas-draw.ts): Konva batches the redraws
// by animation frames and handles the device pixel ratio. A scaled plot scales the Stage: the canvas gets the scaled
// size and the shapes are drawn through the scale, so texts and lines stay sharp at any size.

export default function KonvaScene({
  width,
  height,
  scale = 1,
  shapes,
  pixelRatio,
  onDrawn,
}: {
  width: number;
  height: number;
  scale?: number;
  shapes: readonly SceneShape[];
  pixelRatio?: number;
  onDrawn?: (shapes: readonly SceneShape[]) => void;
}) {
  const layer = useRef<Konva.Layer>(null);
  // The figure's size (SceneView): whole pixels, rounded down.
  const stageWidth = scale === 1 ? width : Math.floor(width * scale);
  const stageHeight = scale === 1 ? height : Math.floor(height * scale);
  const sceneFunc = useCallback((context: Konva.Context) => drawShapes(context._context, shapes), [shapes]);
  // Report the first draw of these shapes. The layer draws on the next animation frame (batchDraw), after this
  // layout effect has listened; asking for one makes sure a commit that changed nothing still reports.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new size is a new layer (the Stage is keyed by it) to listen on
  useLayoutEffect(() => {
    const l = layer.current;
    if (!l || !onDrawn) return;
    const drawn = () => {
      l.off("draw.timing");
      onDrawn(shapes);
    };
    l.on("draw.timing", drawn);
    l.batchDraw();
    return () => void l.off("draw.timing");
  }, [shapes, onDrawn, stageWidth, stageHeight]);
  return (
    <Stage
      // A new size is a new stage: Konva redraws on each of width and height as they are set, so resizing one in place
      // would draw once at the new width and the old height (a frame later both are right, but a canvas drawn at
      // two sizes is not what the plot is).
      key={`${stageWidth}x${stageHeight}`}
      width={stageWidth}
      height={stageHeight}
      scaleX={scale}
      scaleY={scale}
      listening={false}
    >
      <Layer ref={layer} listening={false} {...(pixelRatio ? { pixelRatio } : {})}>
        <Shape sceneFunc={sceneFunc} listening={false} perfectDrawEnabled={false} />
      </Layer>
    </Stage>
  );
}
