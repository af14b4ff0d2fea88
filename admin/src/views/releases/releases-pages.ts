/** The releases pages, fetched together as one chunk the first time one of them opens (views/shell.tsx). */
export { default as ReleasesView } from './releases-view.tsx';
export { default as ReleasePage } from './release-page.tsx';
