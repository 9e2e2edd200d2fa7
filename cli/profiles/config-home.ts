import { homedir } from "node:os";
import { join } from "node:path";

/** Where profiles and tokens live: $ISOPTER_HOME, else $XDG_CONFIG_HOME/isopter, else ~/.config/isopter. */
export function configHome(env: Readonly<Record<string, string | undefined>>): string {
  if (env.ISOPTER_HOME) return env.ISOPTER_HOME;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, "isopter");
  return join(env.HOME || homedir(), ".config", "isopter");
}
