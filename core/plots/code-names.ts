import { strategyCodes, type Strategy } from "../model/enums.ts";
import { message, type Message } from "./scene.ts";

// Names of coded values as messages (an id the web translates, core/model's English name as the default), for the
// printout and the screens alike. Kept apart from the page scenes so a screen that only names a strategy loads no plot.

/** A strategy's name (core/model strategyCodes); an unknown code reads as Undefined. */
export const strategyMessage = (strategy: number): Message => {
  const code = strategyCodes[strategy as Strategy] ?? strategyCodes[0];
  return message(`plots.print.strategy.${code.key}`, code.name);
};
