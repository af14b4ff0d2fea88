/**
 * Whether the file storage answers, for `GET /health`: every call through the adapter tells (a fault such
 * as a refused connection marks it down, any answer marks it up), and when nothing has used it lately a
 * cheap probe asks (a read of a key that does not exist, bounded in time), at most every 15 seconds.
 */
import type { StorageAdapter } from '../../config/types.ts';
import { faultKind } from '../../faults.ts';

const PROBE_EVERY_MS = 15_000;
const PROBE_TIMEOUT_MS = 2_000;
const PROBE_KEY = '.cms-health-probe';

type State = { ok: boolean; at: number; probing: Promise<void> | null };
const states = new WeakMap<StorageAdapter, State>();

/** The adapter with its calls watched; the same adapter for everything else. */
export function watchStorage(adapter: StorageAdapter, now: () => number = Date.now): StorageAdapter {
  const state: State = { ok: true, at: -Infinity, probing: null };
  const watched =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await call(...args);
        Object.assign(state, { ok: true, at: now() });
        return result;
      } catch (error) {
        if (faultKind(error) === 'file storage unreachable') Object.assign(state, { ok: false, at: now() });
        throw error;
      }
    };
  const result: StorageAdapter = {
    ...adapter,
    init: adapter.init?.bind(adapter),
    put: watched(adapter.put.bind(adapter)),
    get: watched(adapter.get.bind(adapter)),
    delete: watched(adapter.delete.bind(adapter)),
    url: adapter.url?.bind(adapter),
    list: adapter.list?.bind(adapter),
  };
  states.set(result, state);
  probes.set(result, now);
  return result;
}

const probes = new WeakMap<StorageAdapter, () => number>();

/** 'ok' or 'error': the last answer seen, asked again when it is older than 15 s. */
export async function storageAnswers(adapter: StorageAdapter): Promise<'ok' | 'error'> {
  const state = states.get(adapter);
  const now = probes.get(adapter);
  if (!state || !now) return 'ok';
  if (now() - state.at >= PROBE_EVERY_MS) {
    state.probing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        Object.assign(state, { ok: false, at: now() });
        resolve();
      }, PROBE_TIMEOUT_MS);
      adapter
        .get(PROBE_KEY)
        .then(
          () => {},
          () => {},
        )
        .finally(() => {
          clearTimeout(timer);
          resolve();
        });
    }).then(() => void (state.probing = null));
    await state.probing;
  }
  return state.ok ? 'ok' : 'error';
}
