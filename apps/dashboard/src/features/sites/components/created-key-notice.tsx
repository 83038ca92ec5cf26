import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import type { CreatedSiteKey } from '../../../lib/api-types';

/** The new key, this one time: a warning, the key to select or copy, and Done (after which it is gone). */
export function CreatedKeyNotice({ created, onDone }: { created: CreatedSiteKey; onDone(): void }) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <section className="alert alert-warning stack created-key" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>Copy the key “{created.name}” now</h4>
      <p>
        It is shown only this once: the server keeps only a fingerprint of it. Store it in the child
        site&apos;s configuration. If it is lost, create a new key and revoke this one.
      </p>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <label htmlFor={`${id}-key`} className="visually-hidden">
          New API key
        </label>
        <input
          id={`${id}-key`}
          className="input created-key-value"
          readOnly
          value={created.key}
          onFocus={(event) => event.target.select()}
        />
        <Button onClick={copy}>Copy key</Button>
      </div>
      <p aria-live="polite" className="field-hint">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser did not allow copying: select the key and copy it by hand.'
            : ''}
      </p>
      <div className="row">
        <Button variant="primary" onClick={onDone}>
          I have stored the key
        </Button>
      </div>
    </section>
  );
}
