import { usePublisherTestFeed } from '../../../api/publishers';
import { Button } from '../../../components/button';
import { FeedPreviewList } from '../../../components/feed-preview';
import { ApiError } from '../../../lib/api-error';
import { explainFeedError } from '../../../lib/feed-errors';

/** Previews the publisher's saved feed with its saved rules: per item, what the next import would do. */
export function RulesPreview({ publisherId, hasFeed }: { publisherId: string; hasFeed: boolean }) {
  const preview = usePublisherTestFeed(publisherId);
  return (
    <div className="stack">
      <div className="row">
        <Button onClick={() => preview.mutate()} busy={preview.isPending} disabled={!hasFeed}>
          Preview with the saved rules
        </Button>
        {!hasFeed && <span className="muted">The publisher has not set a feed address yet.</span>}
      </div>
      {preview.isError && (
        <div className="alert alert-error" role="alert">
          {problemText(preview.error)}
        </div>
      )}
      {preview.data && <FeedPreviewList preview={preview.data} />}
    </div>
  );
}

function problemText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'The feed could not be previewed.';
  if (error.status !== 422) return error.message;
  const { summary, detail } = explainFeedError(error.code, error.message);
  return detail ? `${summary} (${detail})` : summary;
}
