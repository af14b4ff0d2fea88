/** `textarea`: text that may span lines. */
import { noNested, type Kind } from './kind.ts';
import { textLike } from './text-value.ts';

export const textarea: Kind = {
  ...textLike('Plain text, may span lines.', ['equality', 'partial', 'lists'], { sizeLimit: { chars: 1_048_576 } }),
  nested: noNested,
};
