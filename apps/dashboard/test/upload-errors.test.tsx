import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadSigner, type UploadSigner } from '../../api/src/storage/upload-signer';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { startLocalS3 } from '../../api/test/support/local-s3';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The editor's upload error against a real signature-checking store and the real API's signer: jsdom's
// XMLHttpRequest sends the PUT over loopback and applies CORS as a browser does. A refusal (an HTTP status
// from the storage) is told from a browser block (CORS) and from a storage that cannot be reached.

const pageOrigin = window.location.origin;
const withCors = await startLocalS3('with-cors', { corsOrigin: pageOrigin });
const withoutCors = await startLocalS3('without-cors');
const stopped = await startLocalS3('stopped', { corsOrigin: pageOrigin });
await stopped.close();
afterAll(async () => {
  await withCors.close();
  await withoutCors.close();
});

// The API signs with whichever store a test chooses (each a real signer).
let signer: UploadSigner = createUploadSigner(withCors.storage);
const api = await setUpDashboardApi({}, { storage: { signUpload: (type) => signer.signUpload(type) } });

async function uploadThumbnail() {
  const article = await insertArticle(api.db, { status: 'draft', title: 'Harbour at night' });
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard(`/articles/${article.id}`);
  const input = await screen.findByLabelText('Choose thumbnail file');
  const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'harbour.png', { type: 'image/png' });
  await userEvent.setup().upload(input, png);
  return (await screen.findByRole('alert')).textContent ?? '';
}

describe('an upload the storage does not take', () => {
  it('names an expired link as the storage refusing it', async () => {
    // Signed 6 minutes ago: the 5-minute link is already expired when it arrives.
    signer = createUploadSigner(withCors.storage, { now: () => new Date(Date.now() - 6 * 60_000) });
    const message = await uploadThumbnail();
    expect(message).toMatch(/storage refused the upload \(HTTP 403 AccessDenied\): the upload link expired/);
  });

  it('names a CORS rule that does not allow this site as the browser blocking it', async () => {
    signer = createUploadSigner(withoutCors.storage);
    const message = await uploadThumbnail();
    expect(message).toContain(`The browser blocked the upload to ${withoutCors.endpoint}`);
    expect(message).toContain(`CORS rule does not let this site (${pageOrigin})`);
  });

  it('names a storage that answers nothing as a lost connection', async () => {
    signer = createUploadSigner(stopped.storage);
    const message = await uploadThumbnail();
    expect(message).toContain(`could not reach the storage at ${stopped.endpoint}`);
  });
});
