/** `email`: an address, stored trimmed. Reads answer what was stored, so only writes carry the format. */
import { formScalar, invalid, noNested, valid, type Kind } from './kind.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const email: Kind = {
  holds: 'value',
  sizeLimit: { chars: 65_536 },
  check: (_field, raw, kit) =>
    typeof raw !== 'string' || !EMAIL.test(raw.trim())
      ? invalid(raw, kit, 'This is not a valid email address.')
      : valid(raw.trim()),
  schema: (_field, kit) => (kit.mode === 'write' ? { type: 'string', format: 'email' } : { type: 'string' }),
  describe: () => 'An email address.',
  graphQL: { scalar: 'EmailAddress', operators: ['equality', 'partial', 'lists'] },
  tsType: () => 'string',
  fromForm: formScalar(),
  nested: noNested,
};
