/** `GET /_admin/config`: the collections and globals as plain data for the admin (no functions), logged-in users only. */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import type { FieldAdmin, SanitizedCollection, SanitizedField } from '../../config/types.ts';
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
    admin: describeAdmin(field.admin),
    virtual: Boolean(field.virtual),
    // A filter may be a function: the admin only learns that its choices are checked on save.
    filterOptions: field.filterOptions !== undefined,
    ...(field.type === 'join'
      ? {
          collection: field.collection,
          on: field.on,
          defaultLimit: field.defaultLimit,
          defaultSort: field.defaultSort ?? null,
        }
      : {}),
    defaultValue: typeof field.defaultValue === 'function' ? null : (field.defaultValue ?? null),
    // As written, layout fields included: the editor arranges them; values are stored by `fields`' names.
    fields: describeFields(field.editorFields ?? field.fields),
    ...(field.type === 'richText' ? { features: field.features ?? null } : {}),
    ...(field.minRows !== undefined ? { minRows: field.minRows } : {}),
    ...(field.maxRows !== undefined ? { maxRows: field.maxRows } : {}),
    ...(field.tabs
      ? {
          tabs: field.tabs.map((tab) => ({
            label: tab.label ?? null,
            name: tab.name ?? null,
            description: tab.description ?? null,
            admin: tab.admin ?? null,
            fields: describeFields(tab.editorFields),
          })),
        }
      : {}),
    // A rich text field's blocks are offered by its editor, edited with the same forms as a blocks field.
    ...((field.blocks ?? field.richTextBlocks)
      ? {
          blocks: (field.blocks ?? field.richTextBlocks)!.map((block) => ({
            slug: block.slug,
            labels: block.labels ?? null,
            interfaceName: block.interfaceName ?? null,
            imageURL: block.imageURL ?? null,
            admin: serializable(block.admin),
            fields: describeFields(block.editorFields),
          })),
        }
      : {}),
  };
}

function describeFields(fields: SanitizedField[] | undefined): Record<string, unknown>[] | null {
  return fields?.filter((f) => !f.hidden).map(describeField) ?? null;
}

/** Plain data only: functions (conditions, components) stay on the server. */
function serializable(value: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!value) return null;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v !== 'function'));
}

/** Plain values only; `condition` becomes `true` (ask POST /_admin/conditions/… which fields are shown). */
function describeAdmin(admin: FieldAdmin | undefined): Record<string, unknown> | null {
  if (!admin) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(admin)) {
    if (key === 'condition') out.condition = typeof value === 'function';
    else if (typeof value !== 'function') out[key] = value;
  }
  return out;
}

function describeCollectionAdmin(c: SanitizedCollection): Record<string, unknown> {
  const admin = c.admin ?? {};
  return {
    useAsTitle: admin.useAsTitle ?? 'id',
    group: typeof admin.group === 'string' ? admin.group : null,
    defaultColumns: Array.isArray(admin.defaultColumns) ? admin.defaultColumns : null,
    hidden: admin.hidden === true,
    description: typeof admin.description === 'string' ? admin.description : null,
  };
}

/** What the admin is told of the config: the same for every request, made on the first one. */
function describeConfig(cms: CMS) {
  return {
    collections: cms.config.collections.map((c) => ({
      slug: c.slug,
      drafts: c.drafts,
      trash: Boolean(c.trash),
      autosave: c.autosave,
      timestamps: c.timestamps,
      // Documents sit in folders (docs/media.md, "Folders"): the media library browses them.
      folders: Boolean(c.folders),
      builtIn: c.builtIn ?? null,
      labels: c.labels ?? null,
      admin: describeCollectionAdmin(c),
      // The URL is a function of the document: the admin asks POST …/preview for it (with its token).
      livePreview: Boolean(c.livePreview?.url),
      // The list's search box asks the full-text index when there is one (docs/search.md).
      search: c.search !== null,
      fields: describeFields(c.editorFields),
    })),
    globals: cms.config.globals.map((g) => ({
      slug: g.slug,
      drafts: g.drafts,
      autosave: g.autosave,
      label: g.label ?? null,
      livePreview: Boolean(g.livePreview?.url),
      fields: describeFields(g.editorFields),
    })),
    localization: cms.config.localization,
    upload: { maxFileSize: cms.config.upload.maxFileSize, mimeTypes: cms.config.upload.mimeTypes },
    // Which optional areas exist, so the admin offers only those (the audit-log view, the assistant panel,
    // the releases view).
    features: {
      audit: Boolean(cms.config.audit),
      mcp: Boolean(cms.config.mcp),
      releases: Boolean(cms.config.releases),
    },
  };
}

export function adminConfigRoutes(cms: CMS) {
  // Made on the first request rather than at every start (a large config's fields take milliseconds).
  let body: ReturnType<typeof describeConfig> | null = null;
  return new RouteList().all(
    '/_admin/config',
    methods(
      cms,
      {
        GET: ({ credentials }) => {
          if (!credentials.user) throw unauthorized();
          body ??= describeConfig(cms);
          return { body };
        },
        // The admin needs it to show the two-factor setup screen.
      },
      { duringTwoFactorSetup: true },
    ),
  );
}
