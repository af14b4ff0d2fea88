/** The `realtime` setting (docs/realtime.md): limits of the `/realtime` event streams. */
type Fail = (key: string, message: string) => never;

export type RealtimeSettings = {
  /** Open streams per instance; one more is a 429. */
  maxConnections: number;
  /** Topics per stream; more is a 400. */
  maxTopics: number;
  /** Bytes queued for one stream that its client does not read; past this the stream is closed. */
  maxBufferBytes: number;
  /** Milliseconds between the comment lines that keep proxies from closing a quiet stream. */
  heartbeatInterval: number;
};

export type RealtimeConfig = Partial<RealtimeSettings>;

export const REALTIME_DEFAULTS: RealtimeSettings = {
  maxConnections: 10_000,
  maxTopics: 50,
  maxBufferBytes: 1_000_000,
  heartbeatInterval: 25_000,
};

export function sanitizeRealtime(input: RealtimeConfig | undefined, fail: Fail): RealtimeSettings {
  if (input !== undefined && (typeof input !== 'object' || input === null))
    fail('realtime', 'must be { maxConnections, maxTopics, maxBufferBytes, heartbeatInterval }');
  const settings = { ...REALTIME_DEFAULTS, ...input };
  for (const name of Object.keys(REALTIME_DEFAULTS) as (keyof RealtimeSettings)[]) {
    const value = settings[name];
    if (!Number.isInteger(value) || value < 1) fail(`realtime.${name}`, 'must be a positive integer');
  }
  return settings;
}
