/**
 * The table of an operations page, under its toolbar: the error, a spinner until the first answer, a note
 * when there is nothing, the rows, and the pager where the answer has pages.
 */
import type { ComponentChildren } from 'preact';
import type { ListResult } from '../../api.ts';
import { t } from '../../i18n/i18n.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Pager } from '../../ui/pager.tsx';
import { Spinner } from '../../ui/spinner.tsx';

export function OpsTable<Row>(props: {
  /** A paged answer (with a pager under the rows) or a plain list. */
  list: ListResult<Row> | { docs: Row[] } | null;
  error: string | null;
  /** What the page says when there are no rows. */
  empty: string;
  headers: string[];
  /** A last column of buttons, its heading read only by screen readers. */
  actions?: boolean;
  class?: string;
  rowKey: (row: Row) => string | number;
  cells: (row: Row) => ComponentChildren;
  setPage?: (page: number) => void;
}) {
  const { list, error } = props;
  return (
    <>
      <ErrorBox error={error} />
      {!list && !error && <Spinner />}
      {list && list.docs.length === 0 && <p class="muted">{props.empty}</p>}
      {list && list.docs.length > 0 && (
        <div class="table-wrap">
          <table class={props.class ? `ops-table ${props.class}` : 'ops-table'}>
            <thead>
              <tr>
                {props.headers.map((h) => (
                  <th key={h}>{h}</th>
                ))}
                {props.actions && (
                  <th>
                    <span class="visually-hidden">{t('ops.actions')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.docs.map((row) => (
                <tr key={props.rowKey(row)}>{props.cells(row)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && 'totalPages' in list && props.setPage && <Pager list={list} setPage={props.setPage} />}
    </>
  );
}
