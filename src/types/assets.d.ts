// SQL files are imported as text (system migrations embedded in the binary).
declare module '*.sql' {
  const sql: string;
  export default sql;
}

declare module '*.txt' {
  const text: string;
  export default text;
}
