import { useState } from 'react';
import { useSaveFeed, useTestFeed } from '../../../api/own-publisher';
import type { PublisherDetail } from '../../../api/publishers';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FeedPreviewList } from '../../../components/feed-preview';
import { FormTagsField, FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { tagsToText, textToTags } from '../../../components/tags-input';
import { useToast } from '../../../components/toaster';
import { ApiError } from '../../../lib/api-error';
import { explainFeedError } from '../../../lib/feed-errors';

/** The test-feed failure in words (422 carries the feed error's code). */
function testFailure(error: unknown): { summary: string; detail: string | null } {
  if (error instanceof ApiError && error.status === 422) return explainFeedError(error.code, error.message);
  if (error instanceof ApiError) return { summary: error.message, detail: null };
  return { summary: 'The feed could not be tested.', detail: null };
}

/** Feed address and default tags: test the feed (preview, nothing saved), then save. */
export function FeedForm({ publisher }: { publisher: PublisherDetail }) {
  const toast = useToast();
  const test = useTestFeed();
  const [confirming, setConfirming] = useState(false);
  const save = useSaveFeed();
  const { form, handleSubmit, send } = useApiForm({
    defaultValues: { feedUrl: publisher.feedUrl ?? '', defaultTags: tagsToText(publisher.defaultTags) },
    toBody: ({ feedUrl, defaultTags }) => ({
      feedUrl: feedUrl.trim() || null,
      defaultTags: textToTags(defaultTags),
    }),
    schema: 'saveFeed',
    mutation: save,
    codeFields: { INVALID_FEED_URL: 'feedUrl', FEED_URL_REQUIRED: 'feedUrl' },
    onSuccess: () => {
      setConfirming(false);
      toast({ kind: 'success', title: 'Feed settings saved' });
    },
  });
  const trimmed = form.watch('feedUrl').trim();
  const failure = test.isError ? testFailure(test.error) : null;
  const refused = failure !== null && test.error instanceof ApiError && test.error.status === 422;

  return (
    <div className="stack">
      <form
        className="stack card"
        // The test has just refused this very address (editing it resets the test): ask first.
        onSubmit={handleSubmit((values) => (refused ? setConfirming(true) : send(values)))}
        noValidate
        aria-label="Feed settings"
      >
        <FormTextField
          control={form.control}
          name="feedUrl"
          label="Feed address"
          type="url"
          inputMode="url"
          placeholder="https://example.com/feed.xml"
          onValueChange={() => test.reset()}
          hint="The address of your RSS, Atom or JSON feed. Leave it empty to stop the import."
        />
        <FormTagsField
          control={form.control}
          name="defaultTags"
          label="Default tags"
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
        onConfirm={() => void send(form.getValues())}
      >
        <p>
          The test could not use it: {failure?.summary} Saved as it is, the hourly import will fail the same
          way until the feed works.
        </p>
      </ConfirmDialog>
    </div>
  );
}
