export type BadgeTone = 'neutral' | 'success' | 'warning' | 'danger';

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: string }) {
  return <span className={tone === 'neutral' ? 'badge' : `badge badge-${tone}`}>{children}</span>;
}

const articleTones: Record<string, BadgeTone> = {
  published: 'success',
  pending: 'warning',
  rejected: 'danger',
  draft: 'neutral',
};

/** An article's status as a coloured word. */
export function ArticleStatusBadge({ status }: { status: string }) {
  return <Badge tone={articleTones[status] ?? 'neutral'}>{status}</Badge>;
}
