import { useLayoutEffect, useRef } from 'react';
import type { PublisherDetail } from '../../../api/publishers';
import { type PublisherAction, usePublisherAction } from '../../../api/publishers';
import { Button } from '../../../components/button';

/** The state changes a publisher allows now (approve / disable / enable), plus delete. */
export function PublisherActions({
  publisher,
  onDelete,
  size = 'small',
}: {
  publisher: Pick<PublisherDetail, 'id' | 'name' | 'state'>;
  onDelete(): void;
  size?: 'small' | 'normal';
}) {
  const action = usePublisherAction();
  const { state } = publisher;
  const run = (name: PublisherAction) => action.mutate({ id: publisher.id, action: name });
  const busy = (name: PublisherAction) => action.isPending && action.variables?.action === name;
  const label = (verb: string) => `${verb} ${publisher.name}`;
  const row = useRef<HTMLDivElement>(null);
  const approvePressedWithFocus = useRef(false);
  // Approve leaves the row once done: its focus goes to the row's next action, not to <body>.
  useLayoutEffect(() => {
    if (state === 'awaiting' || !approvePressedWithFocus.current) return;
    approvePressedWithFocus.current = false;
    if (document.activeElement === document.body) row.current?.querySelector('button')?.focus();
  }, [state]);

  return (
    <div className="row" ref={row}>
      {state === 'awaiting' && (
        <Button
          size={size}
          variant="primary"
          busy={busy('approve')}
          onClick={(event) => {
            approvePressedWithFocus.current = document.activeElement === event.currentTarget;
            run('approve');
          }}
          aria-label={label('Approve')}
        >
          Approve
        </Button>
      )}
      {state === 'disabled' ? (
        <Button size={size} busy={busy('enable')} onClick={() => run('enable')} aria-label={label('Enable')}>
          Enable
        </Button>
      ) : (
        <Button
          size={size}
          busy={busy('disable')}
          onClick={() => run('disable')}
          aria-label={label('Disable')}
        >
          Disable
        </Button>
      )}
      <Button size={size} variant="danger" onClick={onDelete} aria-label={label('Delete')}>
        Delete
      </Button>
    </div>
  );
}
