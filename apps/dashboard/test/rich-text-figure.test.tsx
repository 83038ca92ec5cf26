import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Editor } from '@tiptap/react';
import { describe, expect, it, vi } from 'vitest';
import { bearer } from '../../api/test/support/dashboard-accounts';
import { RichTextEditor, richTextExtensions } from '../src/features/articles/components/rich-text-editor';
import { setUpDashboardApi } from './support/dashboard-test-app';

// Pictures in the body (issue 32): the editor's figure survives the API's sanitiser, and a stored body loaded
// into the editor and saved again is stored byte for byte the same; inserting one asks for alt text first.

const api = await setUpDashboardApi();

// jsdom lays nothing out and has no Range geometry; ProseMirror asks for it to scroll an inserted figure into
// view. An empty answer is what a hidden element gives in a browser.
Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const figureBody =
  '<p>Intro</p><figure><img src="https://cdn.example.com/ferry.jpg" alt="The ferry &amp; its crew" width="1200" height="800"><figcaption>The ferry at dawn, <em>before</em> the storm.</figcaption></figure>' +
  '<figure><img src="https://cdn.example.com/quay.png" alt="The quay"></figure><p>After</p>';

/** What the editor writes for `html`, as the editor of the dashboard loads it. */
function throughEditor(html: string): string {
  const editor = new Editor({ extensions: richTextExtensions, content: html });
  const out = editor.getHTML();
  editor.destroy();
  return out;
}

describe('figures in the body', () => {
  it('survive the sanitiser, and load then save gives the same stored HTML', {
    timeout: 60_000,
  }, async () => {
    const admin = await api.insertAdmin();
    const created = await api.app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: bearer(admin.token),
      payload: { title: 'Ferry', body: throughEditor(figureBody) },
    });
    expect(created.statusCode).toBe(201);
    const stored = created.json().body as string;
    expect(stored).toContain(
      '<figure><img src="https://cdn.example.com/ferry.jpg" alt="The ferry &amp; its crew"',
    );
    expect(stored).toContain('<figcaption>The ferry at dawn, before the storm.</figcaption></figure>');
    expect(stored).toContain(
      '<figure><img src="https://cdn.example.com/quay.png" alt="The quay" /></figure>',
    );

    const saved = await api.app.inject({
      method: 'PUT',
      url: `/api/v1/article/${created.json().id}`,
      headers: bearer(admin.token),
      payload: { body: throughEditor(stored) },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().body).toBe(stored);
  });

  it('inserts a picture by address only with alt text, with its caption', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    render(<RichTextEditor label="Body" value="<p>Text</p>" onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Image' }));
    await user.type(screen.getByLabelText('Image address'), 'https://cdn.example.com/harbour.jpg');
    await user.click(screen.getByRole('button', { name: 'Insert image' }));
    expect(screen.getByText(/Alt text is required/)).toBeTruthy();
    expect(screen.getByLabelText('Image alt text').getAttribute('aria-invalid')).toBe('true');
    expect(onChange).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Image alt text'), 'The harbour at noon');
    await user.type(screen.getByLabelText('Image caption'), 'Boats wait out the tide.');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('group', { name: 'Insert image' })).toBeNull();
    expect(onChange.mock.lastCall?.[0]).toContain(
      '<figure><img src="https://cdn.example.com/harbour.jpg" alt="The harbour at noon"><figcaption>Boats wait out the tide.</figcaption></figure>',
    );
  });
});
