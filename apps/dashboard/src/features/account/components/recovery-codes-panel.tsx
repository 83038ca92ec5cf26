import { useId, useState } from 'react';
import { Button } from '../../../components/button';

/**
 * Recovery codes, shown this one time (the server keeps only their hashes): copy, download as a text file,
 * and an "I have saved them" step before the panel can be closed.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const id = useId();
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const text = `Newsroom recovery codes (each works once)\n\n${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'newsroom-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section className="alert alert-warning stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Save your recovery codes</h3>
      <p>
        If you lose your phone, each of these codes signs you in once instead of a code from the app. They are
        shown only now: keep them somewhere safe, away from this computer (a password manager, or on paper).
      </p>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="row">
        <Button onClick={copy}>Copy codes</Button>
        <Button onClick={download}>Download as a text file</Button>
      </div>
      <p aria-live="polite" className="field-hint">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser did not allow copying: download them or write them down.'
            : ''}
      </p>
      <label className="checkbox-field">
        <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} />I have
        saved these codes
      </label>
      <div className="row">
        <Button variant="primary" disabled={!saved} onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}
