// Side-effect CSS imports are bundled by esbuild (admin/build.ts).
declare module '*.css';
