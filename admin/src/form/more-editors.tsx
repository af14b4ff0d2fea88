/**
 * The field editors that are larger or that few forms show: not in the first load, fetched with the pages
 * that show forms (views/pages.tsx) the first time one of them is on screen (form/editors.tsx).
 */
export { BlocksField } from './blocks-field.tsx';
export { CodeField } from './code-field.tsx';
export { JoinField } from './join-field.tsx';
export { PointField } from './point-field.tsx';
export { PolymorphicField } from './polymorphic-field.tsx';
export { RelationshipField } from './relationship-field.tsx';
export { ScopesField } from './scopes-field.tsx';
export { UploadField } from './upload-field.tsx';
