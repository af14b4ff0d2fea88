/** `markdown`: Markdown kept as written (docs/content-model.md). */
import { noNested, type Kind } from './kind.ts';
import { textLike } from './text-value.ts';

export const markdown: Kind = {
  ...textLike('Markdown text.', ['equality', 'partial'], { sizeLimit: { chars: 1_048_576 } }),
  nested: noNested,
};
