import type { Template, TemplateFields } from "../model/template.ts";
import { CacheKey } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";

// The templates facet (our design, issue 8 part 7): a template is saved, copied or deleted by one command each, and the
// list (CacheKey.Templates, read through `client.cache`) is read again after it, so the templates page neither
// chooses between calls nor chains a refetch.

export interface TemplatesFacet {
  /** Creates a template (no id) or updates the one with this id; the list is read again. Rejects with the ApiError. */
  save(id: string | null, fields: TemplateFields): Promise<void>;
  /** Copies a template; the list is read again. Resolves with the copy (its name is the server's). Rejects with the ApiError. */
  copy(id: string): Promise<Template>;
  /** Deletes a template; the list is read again. Rejects with the ApiError. */
  remove(id: string): Promise<void>;
}

export function createTemplatesFacet(ctx: FacetContext): TemplatesFacet {
  const reread = () => void ctx.cache.refetch(CacheKey.Templates);
  return {
    async save(id, fields) {
      if (id === null) await ctx.api.call("template.create", { body: fields });
      else await ctx.api.call("template.update", { query: { id }, body: fields });
      reread();
    },
    async copy(id) {
      const created = await ctx.api.call("template.copy", { query: { id } });
      reread();
      return created;
    },
    async remove(id) {
      await ctx.api.call("template.delete", { query: { id } });
      reread();
    },
  };
}
