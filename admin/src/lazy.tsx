/**
 * A component whose code is a chunk of its own (esbuild splitting), fetched the first time it is on screen:
 * the pages and field editors the first paint does not need, so the admin's first load stays small (docs/admin.md).
 * Once fetched, it renders at once: a second field of the same type, or a page opened again, shows no spinner.
 */
import type { ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { message } from './format.ts';
import { ErrorBox } from './ui/error-box.tsx';
import { Spinner } from './ui/spinner.tsx';

export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  let loaded: ComponentType<P> | null = null;
  const fetchOnce = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error) => {
        // A failed fetch (a new deploy, a dropped connection) is tried again next time.
        loading = null;
        throw error;
      },
    ));
  return function Lazy(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (!Component)
        fetchOnce().then(
          (c) => setComponent(() => c),
          (e) => setError(message(e)),
        );
    }, []);
    if (error) return <ErrorBox error={error} />;
    return Component ? <Component {...props} /> : <Spinner />;
  };
}

/** A part fetched each time it is opened from a module's default export (dialogs and panels used now and then). */
export function LazyView<P extends object>(props: { load: () => Promise<{ default: ComponentType<P> }>; props: P }) {
  const [View, setView] = useState<ComponentType<P> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    props.load().then(
      (m) => setView(() => m.default),
      (e) => setError(message(e)),
    );
  }, []);
  if (error) return <ErrorBox error={error} />;
  return View ? <View {...props.props} /> : <Spinner />;
}
