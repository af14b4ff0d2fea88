/** `upload`: a relationship to a document of an upload collection (docs/media.md); one, never a list. */
import type { Kind } from './kind.ts';
import { describeReference, relationship } from './relationship.ts';

export const upload: Kind = {
  ...relationship,
  describe: (field) => describeReference(field, ' (upload a file with the upload tool first)'),
};
