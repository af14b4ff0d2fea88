/** What MCP may write: every collection but accounts and API keys, so a key can neither widen its own rights nor mint another. */
import type { SanitizedCollection } from '../config/types.ts';

export const mayWriteOverMCP = (collection: SanitizedCollection) =>
  collection.builtIn !== 'users' && collection.builtIn !== 'api-keys';
