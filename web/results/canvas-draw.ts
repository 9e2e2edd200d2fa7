// Draws a scene's shapes (scene-shapes.ts) on a 2D canvas context: what KonvaScene's one Konva shape does in its
// sceneFunc. One shape per plot instead of one Konva node per primitive: a page of plots holds about a thousand
// primitives, and building, caching and walking that many Konva nodes cost more than the whole drawing aim
// (bench/results.bench.ts). Konva still owns the stage: pixel ratio, and redraws batched by animation frames.

import type { Shape } from "./scene-shapes.ts";

/** The part of CanvasRenderingContext2D the drawing uses (tests record calls on a fake). */
export type Canvas2D = Pick<
  CanvasRenderingContext2D,
  | "save"
  | "restore"
  | "translate"
  | "rotate"
  | "scale"
  | "beginPath"
  | "closePath"
  | "rect"
  | "arc"
  | "moveTo"
  | "lineTo"
  | "fill"
  | "stroke"
  | "fillText"
  | "setLineDash"
  | "measureText"
  | "fillStyle"
  | "strokeStyle"
  | "lineWidth"
  | "lineJoin"
  | "font"
  | "textAlign"
  | "textBaseline"
>;

/** The smallest a fitted text is set (a longer one would need its own layout). */
const MIN_FONT_PX = 8;

function paint(ctx: Canvas2D, s: { fill?: string; stroke?: string; strokeWidth?: number; dash?: number[] }) {
  if (s.fill !== undefined) {
    ctx.fillStyle = s.fill;
    ctx.fill();
  }
  if (s.stroke !== undefined) {
    ctx.strokeStyle = s.stroke;
    ctx.lineWidth = s.strokeWidth ?? 1;
    ctx.setLineDash(s.dash ?? []);
    ctx.stroke();
  }
}

function drawOne(ctx: Canvas2D, s: Shape): void {
  switch (s.type) {
    case "rect":
      ctx.beginPath();
      ctx.rect(s.x, s.y, s.width, s.height);
      paint(ctx, s);
      return;
    case "circle":
      ctx.beginPath();
      ctx.arc(s.x, s.y, s.radius, 0, 2 * Math.PI);
      paint(ctx, s);
      return;
    case "line": {
      const p = s.points;
      if (p.length < 4) return;
      ctx.beginPath();
      ctx.moveTo(p[0]!, p[1]!);
      for (let i = 2; i + 1 < p.length; i += 2) ctx.lineTo(p[i]!, p[i + 1]!);
      if (s.closed) ctx.closePath();
      // An open line is never filled (as Konva's Line).
      paint(ctx, s.closed ? s : { ...s, fill: undefined });
      return;
    }
    case "text":
      if (s.text === "") return;
      ctx.save();
      ctx.translate(s.x, s.y);
      if (s.rotation) ctx.rotate((s.rotation * Math.PI) / 180);
      ctx.font = `${s.fontStyle} ${s.fontSize}px ${s.fontFamily}`;
      if (s.maxWidth !== undefined) {
        // A translation longer than the room it has is set smaller, whole, rather than cut at the canvas edges.
        const width = ctx.measureText(s.text).width;
        if (width > s.maxWidth)
          ctx.font = `${s.fontStyle} ${Math.max(MIN_FONT_PX, Math.floor((s.fontSize * s.maxWidth * 10) / width) / 10)}px ${s.fontFamily}`;
      }
      ctx.textAlign = s.align;
      ctx.textBaseline = "alphabetic";
      ctx.fillStyle = s.fill;
      // Below the smallest size the canvas narrows the glyphs to the width (its maxWidth): still whole, never cut.
      if (s.maxWidth !== undefined) ctx.fillText(s.text, 0, s.baseline, s.maxWidth);
      else ctx.fillText(s.text, 0, s.baseline);
      ctx.restore();
      return;
    case "group":
      ctx.save();
      ctx.translate(s.x, s.y);
      if (s.scaleX !== 1 || s.scaleY !== 1) ctx.scale(s.scaleX, s.scaleY);
      drawShapes(ctx, s.children);
      ctx.restore();
      return;
  }
}

/** Draws the shapes in order (later ones on top). */
export function drawShapes(ctx: Canvas2D, shapes: readonly Shape[]): void {
  ctx.lineJoin = "round";
  for (const s of shapes) drawOne(ctx, s);
}
