// SQL files are imported as text (system migrations embedded in the binary).
declare module '*.sql' {
  const sql: string;
  export default sql;
}

declare module '*.txt' {
  const text: string;
  export default text;
}

// The URI decoder Elysia's router decodes parameters with (src/http/api-router.ts): null for malformed input.
declare module 'fast-decode-uri-component' {
  const decode: (text: string) => string | null;
  export default decode;
}
