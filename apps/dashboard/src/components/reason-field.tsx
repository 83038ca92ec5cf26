import { TextField } from './text-field';

/** The API's bound on a review decision's reason (ReviewDecisionBodySchema). */
const maxReasonLength = 500;

/** The optional reason sent with a review decision; the publisher reads it with the article. */
export function ReasonField({
  value,
  onChange,
  hint = 'Sent with your decision; the publisher sees it with the article.',
}: {
  value: string;
  onChange(reason: string): void;
  hint?: string;
}) {
  return (
    <TextField
      label="Reason (optional)"
      hint={hint}
      value={value}
      maxLength={maxReasonLength}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
