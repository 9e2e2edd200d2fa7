import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setupI18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { generateMessageId } from "@lingui/message-utils/generateMessageId";
import type { Language } from "../../../core/model/enums.ts";
import { languageTag } from "../../../core/model/language-tags.ts";
import type { Translate } from "../../../core/plots/message.ts";

// The printed page in an interface language: the web's catalogs (web/locales/<language>/messages.po, what translators
// edit), read as they are. core/plots names each text by an English default, which is the catalog's msgid; Lingui's id
// is that text's hash, as in the web, and its runtime fills placeholders and plurals. A text the catalog lacks keeps
// core's English default, as on screen.

const catalogFile = (language: Language) => fileURLToPath(new URL(`../../../web/locales/${language}/messages.po`, import.meta.url));

/** A .po string's content ("..." with C escapes). */
const unquote = (line: string): string =>
  line
    .slice(line.indexOf('"') + 1, line.lastIndexOf('"'))
    .replace(/\\(["\\nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));

/** msgid -> msgstr of a .po text, translated entries only (no context or plural forms: the catalogs use neither). */
export function poEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  let field: "msgid" | "msgstr" | null = null;
  let id = "",
    str = "";
  const end = () => {
    if (field === "msgstr" && id !== "" && str !== "") entries.set(id, str);
    field = null;
    id = str = "";
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("msgid ")) {
      end();
      field = "msgid";
      id = unquote(line);
    } else if (line.startsWith("msgstr ")) {
      field = "msgstr";
      str = unquote(line);
    } else if (line.startsWith('"') && field !== null) {
      if (field === "msgid") id += unquote(line);
      else str += unquote(line);
    } else if (line === "" || line.startsWith("#")) end();
  }
  end();
  return entries;
}

const loaded = new Map<Language, Translate>();

/** core/plots' Translate in `language` (undefined for English: the defaults are the English texts). */
export function pageTranslate(language: Language): Translate | undefined {
  if (language === "en") return undefined;
  const known = loaded.get(language);
  if (known) return known;
  const messages: Record<string, string> = {};
  for (const [source, translated] of poEntries(readFileSync(catalogFile(language), "utf8")))
    messages[generateMessageId(source)] = translated;
  const i18n = setupI18n();
  i18n.setMessagesCompiler(compileMessage);
  i18n.load(languageTag[language], messages);
  i18n.activate(languageTag[language]);
  const translate: Translate = (m) => {
    const id = generateMessageId(m.default);
    return id in messages ? i18n._(id, m.values as Record<string, unknown> | undefined) : undefined;
  };
  loaded.set(language, translate);
  return translate;
}
