import type { CreatedSiteKey } from '../../../api/sites';
import { ShownOnceSecret } from '../../../components/shown-once-secret';

/** The new key, this one time: a warning, the key to select or copy, and Done (after which it is gone). */
export function CreatedKeyNotice({ created, onDone }: { created: CreatedSiteKey; onDone(): void }) {
  return (
    <ShownOnceSecret
      title={`Copy the key “${created.name}” now`}
      label="New API key"
      value={created.key}
      copyLabel="Copy key"
      doneLabel="I have stored the key"
      onDone={onDone}
    >
      <p>
        It is shown only this once: the server keeps only a fingerprint of it. Store it in the child
        site&apos;s configuration. If it is lost, create a new key and revoke this one.
      </p>
    </ShownOnceSecret>
  );
}
