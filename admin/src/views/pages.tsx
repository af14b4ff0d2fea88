/**
 * The pages besides the dashboard and the lists, fetched together as one chunk the first time one of them
 * opens (views/shell.tsx), with the larger field editors (form/more-editors.tsx, wired in main.tsx): one chunk
 * rather than one each keeps the code they share in one place and the admin's total size down.
 */
export { AccountSecurity, TwoFactorPanel } from './account/account-security.tsx';
export { EditView } from './edit/edit-view.tsx';
export { GlobalView } from './edit/global-view.tsx';
export { MediaLibrary } from './media-library.tsx';
export * from '../form/more-editors.tsx';
