/** The field types a config holds, as the admin reads them from `GET /_admin/config`. Types only. */
export type { FieldType } from '../config/types.ts';
