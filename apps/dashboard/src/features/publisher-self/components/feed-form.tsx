import { type FormEvent, useState } from 'react';
import { useSaveFeed, useTestFeed } from '../../../api/own-publisher';
import type { PublisherDetail } from '../../../api/publishers';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FeedPreviewList } from '../../../components/feed-preview';
import { TagsInput, tagsToText, textToTags } from '../../../components/tags-input';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { ApiError } from '../../../lib/api-error';
import { explainFeedError } from '../../../lib/feed-errors';
import { fieldErrors } from '../../../lib/field-errors';

/** The test-feed failure in words (422 carries the feed error's code). */
function testFailure(error: unknown): { summary: string; detail: string | null } {
  if (error instanceof ApiError && error.status === 422) return explainFeedError(error.code, error.message);
  if (error instanceof ApiError) return { summary: error.message, detail: null };
  return { summary: 'The feed could not be tested.', detail: null };
}

/** Feed address and default tags: test the feed (preview, nothing saved), then save. */
export function FeedForm({ publisher }: { publisher: PublisherDetail }) {
  const toast = useToast();
  const [feedUrl, setFeedUrl] = useState(publisher.feedUrl ?? '');
  const [tags, setTags] = useState(tagsToText(publisher.defaultTags));
  const test = useTestFeed();
  const save = useSaveFeed();
  const [confirming, setConfirming] = useState(false);
  const errors = fieldErrors(save.error, ['feedUrl', 'defaultTags'] as const, {
    INVALID_FEED_URL: 'feedUrl',
    FEED_URL_REQUIRED: 'feedUrl',
  });
  const trimmed = feedUrl.trim();

  function saveFeed() {
    save.mutate(
      { feedUrl: trimmed || null, defaultTags: textToTags(tags) },
      {
        onSuccess: () => {
          setConfirming(false);
          toast({ kind: 'success', title: 'Feed settings saved' });
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // The test has just refused this very address (editing it resets the test): ask first.
    if (refused) setConfirming(true);
    else saveFeed();
  }

  const failure = test.isError ? testFailure(test.error) : null;
  const refused = failure !== null && test.error instanceof ApiError && test.error.status === 422;

  return (
    <div className="stack">
      <form className="stack card" onSubmit={submit} noValidate aria-label="Feed settings">
        <TextField
          label="Feed address"
          name="feedUrl"
          type="url"
          inputMode="url"
          placeholder="https://example.com/feed.xml"
          value={feedUrl}
          onChange={(e) => {
            setFeedUrl(e.target.value);
            test.reset();
          }}
          error={errors.feedUrl}
          hint="The address of your RSS, Atom or JSON feed. Leave it empty to stop the import."
        />
        <TagsInput
          label="Default tags"
          value={tags}
          onChange={setTags}
          error={errors.defaultTags}
          hint="Added to every article imported from your feed. Separate tags with commas."
        />
        <div className="row">
          <Button busy={test.isPending} disabled={!trimmed} onClick={() => test.mutate(trimmed)}>
            {test.isPending ? 'Testing…' : 'Test feed'}
          </Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save
          </Button>
        </div>
      </form>
      {test.isPending && (
        <p className="muted" role="status">
          Fetching the feed…
        </p>
      )}
      {failure && (
        <div className="alert alert-error" role="alert">
          <strong>The feed cannot be used. </strong>
          {failure.summary}
          {failure.detail && <span> ({failure.detail})</span>}
        </div>
      )}
      {test.isSuccess && <FeedPreviewList preview={test.data} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Save an address that failed the test?"
        confirmLabel="Save anyway"
        busy={save.isPending}
        onConfirm={saveFeed}
      >
        <p>
          The test could not use it: {failure?.summary} Saved as it is, the hourly import will fail the same
          way until the feed works.
        </p>
      </ConfirmDialog>
    </div>
  );
}
