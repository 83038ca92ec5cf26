import type { PublisherDetail } from '../../../api/publishers';

/**
 * Says when the publisher's account is not yet approved or is disabled: its feed is not imported then,
 * which its dashboard would otherwise not explain. (A disabled publisher cannot sign in today, docs/auth.md;
 * the notice covers the state all the same.)
 */
export function AccountStateNotice({ publisher }: { publisher: PublisherDetail }) {
  if (publisher.state === 'awaiting')
    return (
      <div className="alert alert-warning" role="status">
        <strong>Your account is awaiting approval.</strong> The newsroom has not approved it yet, so nothing
        is imported from your feed. You can set and test your feed now: the import starts once you are
        approved.
      </div>
    );
  if (publisher.state === 'disabled')
    return (
      <div className="alert alert-error" role="status">
        <strong>Your account is disabled.</strong> Nothing is imported from your feed; your articles stay as
        they are. Ask the newsroom to enable it again.
      </div>
    );
  return null;
}
