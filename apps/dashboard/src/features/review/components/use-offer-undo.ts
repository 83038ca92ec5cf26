import { useUndoReview } from '../../../api/review';
import { useToast } from '../../../components/toaster';

/** How long a decision's toast offers Undo (paused while the pointer or the focus is on it). */
export const undoWindowMs = 10_000;

/**
 * Says what a decision did, in a toast whose Undo moves the articles back to pending for `undoWindowMs`;
 * `onRestored` gets the ids the API put back (those it refused are said in an error toast).
 */
export function useOfferUndo(onRestored: (ids: string[]) => void) {
  const toast = useToast();
  const undo = useUndoReview();
  return function offerUndo(ids: string[], title: string) {
    toast({
      kind: 'success',
      title,
      duration: undoWindowMs,
      action: {
        label: 'Undo',
        altText: `Undo: move back to pending (${title})`,
        onAction: () => {
          // mutateAsync, not mutate's callbacks: those run only for the latest call, and undos may overlap.
          undo
            .mutateAsync(ids)
            .then(({ results }) => {
              const back = results.filter((result) => result.ok).map((result) => result.id);
              if (back.length > 0) onRestored(back);
              const refused = results.filter((result) => !result.ok);
              if (refused.length > 0) {
                toast({
                  kind: 'error',
                  title: 'Could not undo',
                  description: refused[0]?.error?.message ?? 'The article changed meanwhile.',
                });
              } else {
                toast({
                  kind: 'info',
                  title: `Back to pending: ${title.replace(/^(Approved|Rejected) /, '')}`,
                });
              }
            })
            .catch(() => {}); // the query client's handler has said why
        },
      },
    });
  };
}
