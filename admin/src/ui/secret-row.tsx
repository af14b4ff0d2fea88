import { CopyButton } from './copy-button.tsx';

/** A secret or link shown for copying: the text, selectable, with a copy button beside it. */
export function SecretRow(props: { text: string; label: string; id?: string; testId?: string }) {
  return (
    <div class="secret-row">
      <code class="secret" id={props.id} data-testid={props.testId}>
        {props.text}
      </code>
      <CopyButton text={props.text} label={props.label} />
    </div>
  );
}
