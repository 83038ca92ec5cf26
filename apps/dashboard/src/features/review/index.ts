export { PendingCountBadge } from './components/pending-count-badge';
