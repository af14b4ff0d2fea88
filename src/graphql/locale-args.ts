/** `locale` and `fallbackLocale` arguments (Payload's `LocaleInputType`, `FallbackLocaleInputType`), only when the config is localized. */
import { GraphQLEnumType, type GraphQLFieldConfigArgumentMap } from 'graphql';
import { formatName } from './names.ts';
import type { SchemaBuild } from './build-state.ts';

function localeEnum(name: string, codes: string[], build: SchemaBuild): GraphQLEnumType {
  return build.named(
    name,
    () =>
      new GraphQLEnumType({
        name,
        values: Object.fromEntries(codes.map((code) => [formatName(code), { value: code }])),
      }),
  );
}

export function localeArgs(build: SchemaBuild, withFallback = true): GraphQLFieldConfigArgumentMap {
  const l10n = build.config.localization;
  if (!l10n) return {};
  const locale = { locale: { type: localeEnum('LocaleInputType', [...l10n.locales, 'all'], build) } };
  return withFallback
    ? { ...locale, fallbackLocale: { type: localeEnum('FallbackLocaleInputType', [...l10n.locales, 'none'], build) } }
    : locale;
}
