/** The npm package ships no types; the shape it returns (prom2json's) is described where the test reads it. */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
