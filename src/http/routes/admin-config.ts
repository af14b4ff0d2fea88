/** `GET /_admin/config`: the collections and globals as plain data for the admin (no functions), logged-in users only. */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import type { SanitizedField } from '../../config/types.ts';
import { unauthorized } from '../../errors.ts';
import { methods } from '../handle.ts';

function describeField(field: SanitizedField): Record<string, unknown> {
  return {
    name: field.name,
    type: field.type,
    label: field.label ?? null,
    required: Boolean(field.required),
    localized: field.localized,
    hasMany: Boolean(field.hasMany),
    relationTo: field.relationTo ?? null,
    options: field.options ?? null,
    admin: field.admin ?? null,
    defaultValue: typeof field.defaultValue === 'function' ? null : field.defaultValue ?? null,
    fields: field.fields?.filter((f) => !f.hidden).map(describeField) ?? null,
  };
}

export function adminConfigRoutes(cms: CMS) {
  const body = {
    collections: cms.config.collections.map((c) => ({
      slug: c.slug,
      drafts: c.drafts,
      builtIn: c.builtIn ?? null,
      labels: c.labels ?? null,
      admin: { useAsTitle: c.admin?.useAsTitle ?? 'id' },
      // The URL is a function of the document: the admin asks POST …/preview for it (with its token).
      livePreview: Boolean(c.livePreview?.url),
      fields: c.fields.filter((f) => !f.hidden).map(describeField),
    })),
    globals: cms.config.globals.map((g) => ({ slug: g.slug, drafts: g.drafts, label: g.label ?? null, livePreview: Boolean(g.livePreview?.url), fields: g.fields.filter((f) => !f.hidden).map(describeField) })),
    localization: cms.config.localization,
    upload: { maxFileSize: cms.config.upload.maxFileSize, mimeTypes: cms.config.upload.mimeTypes },
  };
  return new Elysia().all('/_admin/config', methods(cms, {
    GET: ({ credentials }) => {
      if (!credentials.user) throw unauthorized();
      return { body };
    },
    // The admin needs it to show the two-factor setup screen.
  }, { duringTwoFactorSetup: true }));
}
