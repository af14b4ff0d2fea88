/** A page whose code is a chunk of its own (esbuild splitting), fetched when the page is first opened. */
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { message } from '../format.ts'
import { ErrorBox, Spinner } from '../ui.tsx'

export function LazyView<P extends object>(props: { load: () => Promise<{ default: ComponentType<P> }>; props: P }) {
  const [View, setView] = useState<ComponentType<P> | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    props.load().then((m) => setView(() => m.default), (e) => setError(message(e)))
  }, [])
  if (error) return <ErrorBox error={error} />
  return View ? <View {...props.props} /> : <Spinner />
}
