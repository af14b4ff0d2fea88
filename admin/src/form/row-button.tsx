/** One of a repeated row's icon buttons (move, add, duplicate, remove) in arrays and blocks. */
import { Icon } from '../ui.tsx';

/** `label` names the row for screen readers ("Move "Intro" up"); `title` is the short tooltip. */
export function RowButton(props: {
  icon: string;
  label: string;
  title: string;
  disabled: boolean;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      class={props.danger ? 'icon-button danger-text' : 'icon-button'}
      disabled={props.disabled}
      aria-label={props.label}
      title={props.title}
      onClick={props.onClick}
    >
      <Icon name={props.icon} />
    </button>
  );
}
