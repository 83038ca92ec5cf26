import { Badge } from '../../../components/status-badge';
import type { Publisher } from '../../../lib/api-types';
import type { PublisherState } from '../routes/publishers-search';

export const stateLabels: Record<PublisherState, string> = {
  awaiting: 'Awaiting approval',
  approved: 'Approved',
  disabled: 'Disabled',
};

export function stateOf(publisher: Pick<Publisher, 'approved' | 'disabled'>): PublisherState {
  if (publisher.disabled) return 'disabled';
  return publisher.approved ? 'approved' : 'awaiting';
}

export function PublisherStateBadge({ publisher }: { publisher: Pick<Publisher, 'approved' | 'disabled'> }) {
  const state = stateOf(publisher);
  const tone = state === 'approved' ? 'success' : state === 'disabled' ? 'danger' : 'warning';
  return <Badge tone={tone}>{stateLabels[state]}</Badge>;
}
