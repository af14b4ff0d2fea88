/** `text`: one line of text. */
import { noNested, type Kind } from './kind.ts';
import { textLike } from './text-value.ts';

export const text: Kind = {
  ...textLike('Text.', ['equality', 'partial', 'lists'], { sizeLimit: { chars: 65_536 } }),
  nested: noNested,
};
