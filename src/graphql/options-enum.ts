/**
 * A select's (or radio's) options as an enum, made once per name: Payload's `Post_category` on reads,
 * `Post_category_MutationInput` on writes and `Post_category_Input` in filters.
 */
import { GraphQLEnumType } from 'graphql';
import type { SanitizedField } from '../config/types.ts';
import { formatName } from './names.ts';
import type { SchemaBuild } from './build-state.ts';

export function optionsEnum(field: SanitizedField, name: string, build: SchemaBuild): GraphQLEnumType {
  return build.named(name, () => {
    const values: Record<string, { value: string }> = {};
    for (const option of field.options ?? []) {
      let key = formatName(option.value);
      for (let n = 2; key in values; n++) key = `${formatName(option.value)}_${n}`;
      values[key] = { value: option.value };
    }
    if (Object.keys(values).length === 0) values._ = { value: '' };
    return new GraphQLEnumType({ name, values });
  });
}
