/**
 * What the layout kinds (tabs, row, collapsible) share: they arrange other fields and hold no value, so
 * the sanitized config flattens them away and no stored field list holds one.
 */
import { formScalar, noNested, valid, type Kind } from './kind.ts';

export const layoutKind: Kind = {
  holds: 'layout',
  check: (_field, raw) => valid(raw),
  schema: () => ({}),
  describe: () => 'Not written.',
  graphQL: { shape: 'layout' },
  tsType: () => 'never',
  fromForm: formScalar(),
  nested: noNested,
};
