/** `code`: source code as text. */
import { formScalar, noNested, type Kind } from './kind.ts';
import { textLike } from './text-value.ts';

export const code: Kind = {
  ...textLike('Source code as text.', ['equality', 'partial', 'lists'], {
    fromForm: formScalar(),
    sizeLimit: { chars: 1_048_576 },
  }),
  nested: noNested,
};
