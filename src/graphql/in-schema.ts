/** Which stored fields the GraphQL schema shows. */
import { LAYOUT_FIELD_TYPES, type SanitizedField } from '../config/types.ts';

/**
 * Hidden fields are left out entirely. Layout fields (tabs, row, collapsible) never reach the schema:
 * sanitizing stores their fields at their own level, and those are mapped there.
 */
export const inSchema = (field: SanitizedField) =>
  !field.hidden && Boolean(field.name) && !(LAYOUT_FIELD_TYPES as readonly string[]).includes(field.type);
