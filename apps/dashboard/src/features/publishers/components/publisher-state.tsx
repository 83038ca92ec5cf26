import type { PublisherState } from '../../../api/publishers';
import { Badge } from '../../../components/status-badge';

export const stateLabels: Record<PublisherState, string> = {
  awaiting: 'Awaiting approval',
  approved: 'Approved',
  disabled: 'Disabled',
};

const tones = { approved: 'success', awaiting: 'warning', disabled: 'danger' } as const;

export function PublisherStateBadge({ state }: { state: PublisherState }) {
  return <Badge tone={tones[state]}>{stateLabels[state]}</Badge>;
}
