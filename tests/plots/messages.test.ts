import { describe, expect, it } from "vitest";
import { sceneMessages } from "../../core/plots/message.ts";
import { walk } from "../../core/plots/scene.ts";
import { sampleScenes } from "./samples.ts";

describe("translatable texts", () => {
  const messages = Object.values(sampleScenes()).flatMap(sceneMessages);

  it("every message has a plots.* id and one English default per id", () => {
    expect(messages.length).toBeGreaterThan(30);
    const defaults = new Map<string, string>();
    for (const m of messages) {
      expect(m.id).toMatch(/^plots\.[\w.]+$/);
      expect(m.default.length).toBeGreaterThan(0);
      if (defaults.has(m.id)) expect(defaults.get(m.id), m.id).toBe(m.default);
      defaults.set(m.id, m.default);
    }
  });

  it("words are messages, not literal strings: literal texts are numbers, units and degree labels", () => {
    for (const [name, scene] of Object.entries(sampleScenes())) {
      if (name === "print-page") continue; // its header line is the sample's own
      for (const n of walk(scene.nodes))
        if (n.kind === "text" && typeof n.text === "string")
          expect(n.text, name).toMatch(/^(<0|\+|[-+]?\d+(\.\d+)?( %|°)?|\d+-\d+|\d{4}-\d{2}-\d{2}|\d{2}:\d{2})$/);
    }
  });
});
