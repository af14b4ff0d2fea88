/**
 * Drafts and versions as a project may spell them: ours (`drafts: true`, `drafts: { autosave }`,
 * `maxVersions`) or Payload's (`versions: { drafts: true | { autosave }, maxPerDoc }`), plus the
 * collection options `timestamps` and `defaultSort`.
 */
type Fail = (key: string, message: string) => never;
export type AutosaveOption = boolean | { interval?: number };
/** `validate: true` checks drafts like publishes (Payload's `versions.drafts.validate`). */
export type DraftsOption = boolean | { autosave?: AutosaveOption; validate?: boolean };
export type VersionsOption = boolean | { drafts?: DraftsOption; maxPerDoc?: number };

export type SanitizedVersioning = {
  drafts: boolean;
  autosave: { interval: number } | null;
  maxVersions: number;
  validateDrafts: boolean;
};

const DEFAULT_AUTOSAVE_INTERVAL = 800;

export function sanitizeVersioning(
  input: { drafts?: DraftsOption; versions?: VersionsOption; maxVersions?: number },
  key: string,
  fail: Fail,
): SanitizedVersioning {
  const fromVersions = typeof input.versions === 'object' && input.versions !== null ? input.versions : {};
  if (
    input.versions !== undefined &&
    typeof input.versions !== 'boolean' &&
    (typeof input.versions !== 'object' || input.versions === null)
  )
    fail(`${key}.versions`, 'must be true or { drafts, maxPerDoc }');
  const drafts = input.drafts ?? fromVersions.drafts ?? false;
  if (typeof drafts !== 'boolean' && (typeof drafts !== 'object' || drafts === null))
    fail(`${key}.drafts`, 'must be true or { autosave }');
  const autosaveInput = typeof drafts === 'object' ? drafts.autosave : undefined;
  let autosave: SanitizedVersioning['autosave'] = null;
  if (autosaveInput) {
    const interval =
      typeof autosaveInput === 'object'
        ? (autosaveInput.interval ?? DEFAULT_AUTOSAVE_INTERVAL)
        : DEFAULT_AUTOSAVE_INTERVAL;
    if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 100)
      fail(`${key}.drafts.autosave.interval`, 'must be a number of milliseconds (100 or more)');
    autosave = { interval };
  }
  const maxVersions = input.maxVersions ?? fromVersions.maxPerDoc ?? 100;
  if (!Number.isInteger(maxVersions) || maxVersions < 1)
    fail(`${key}.versions.maxPerDoc`, 'must be a whole number of 1 or more');
  const validateDrafts = typeof drafts === 'object' ? drafts.validate : undefined;
  if (validateDrafts !== undefined && typeof validateDrafts !== 'boolean')
    fail(`${key}.drafts.validate`, 'must be true or false');
  return { drafts: Boolean(drafts), autosave, maxVersions, validateDrafts: Boolean(validateDrafts) };
}

export function sanitizeDefaultSort(value: unknown, key: string, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?[A-Za-z_][\w.]*$/.test(value))
    fail(`${key}.defaultSort`, 'must be a field name, optionally with a leading -');
  return value as string;
}
