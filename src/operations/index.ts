/** Every action once; REST, the Local API, the job runner and the CLI all call these. */
export { find, count } from './find.ts';
export { updateMany, deleteMany, type BulkResult } from './bulk.ts';
export { findByID } from './find-by-id.ts';
export { create } from './create.ts';
export { update } from './update.ts';
export { deleteDocument } from './delete.ts';
export { replaceUpload, upload } from './upload.ts';
export { findGlobal, updateGlobal } from './globals.ts';
export { createContext, type OperationContext } from '../operation-context.ts';
export { unpublish } from './unpublish.ts';
export { discardDraft } from './discard-draft.ts';
export { findVersions, findVersionByID } from './find-versions.ts';
export { restoreVersion } from './restore-version.ts';
export { scheduleAction, listScheduled, cancelScheduled } from './schedule.ts';
export { previewDocument } from './preview.ts';
export { duplicate } from './duplicate.ts';
export { findRelated } from './find-related.ts';
