/** The red box that shows what went wrong (an alert for screen readers), or nothing. */

export function ErrorBox(props: { error?: string | null }) {
  return props.error ? (
    <div class="alert error" role="alert">
      {props.error}
    </div>
  ) : null;
}
