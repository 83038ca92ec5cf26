// @vitest-environment node
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../../api/test/support/content-fixtures';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// Issue 31 in Chromium: an administrator invites an editor scoped to site A from the Team view; the link is
// read from the development outbox (no SMTP here); the invitee chooses a password, signs in, publishes an
// article of site A, and is refused on site B: no Publish control there, and 403 from the API itself.

const suite = browserSuite();

const signIn = (page: Page, email: string, password: string, home: string) =>
  signInAt(page, suite.stack.origin, { email, password }, home);

/** The invitation link the API kept for this address in its development outbox (/dev/outbox). */
async function outboxLinkFor(page: Page, email: string): Promise<string> {
  const html = await (await page.request.get(`${suite.stack.origin}/dev/outbox`)).text();
  const item = html.split('<li>').find((entry) => entry.includes(email) && entry.includes('/invitation/'));
  const link = item?.match(/href="([^"]+\/invitation\/[^"]+)"/)?.[1];
  if (!link) throw new Error(`no invitation for ${email} in the development outbox`);
  return link;
}

describe('inviting an editor for one site, in Chromium', { timeout: 180_000 }, () => {
  it('invites from Team; the editor joins, publishes on site A and is refused on site B', async () => {
    const siteA = await insertSite(suite.stack.db, 'harbour');
    const siteB = await insertSite(suite.stack.db, 'valley');
    const onA = await insertArticle(suite.stack.db, {
      status: 'draft',
      siteIds: [siteA],
      title: 'Ferry timetable',
    });
    const onB = await insertArticle(suite.stack.db, {
      status: 'draft',
      siteIds: [siteB],
      title: 'Valley fair',
    });
    const email = 'new.editor@newsroom.example';
    const password = 'a long password for the new editor';

    const admin = await (await suite.profile()).newPage();
    await signIn(admin, suite.stack.admin.email, suite.stack.admin.password, '/publishers');
    await admin.getByRole('link', { name: 'Team' }).first().click();
    await admin.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await admin.getByRole('cell', { name: `${suite.stack.admin.email} (you)` }).waitFor();

    await admin.getByLabel('E-mail').fill(email);
    await admin.getByLabel('Role', { exact: true }).selectOption('editor');
    await admin.getByLabel('Role on Site harbour').selectOption('editor');
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    const shown = admin.getByTestId('invitation-link');
    await shown.waitFor();
    await admin.getByText(`${email}, editor, until`).waitFor();
    await screenshots(admin, 'team-invited');
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);

    const link = await outboxLinkFor(admin, email);
    expect(await shown.textContent()).toBe(link);
    const token = new URL(link).pathname.split('/').pop() as string;

    const invitee = await (await suite.profile()).newPage();
    await invitee.goto(`${suite.stack.origin}/invitation/${token}`);
    await invitee.getByText(email).waitFor();
    await invitee.getByLabel('New password (at least 12 characters)').fill(password);
    await invitee.getByRole('button', { name: 'Create my account' }).click();
    await invitee.getByText('Your account is ready.').waitFor();
    await signIn(invitee, email, password, '/articles');

    // Only what an editor may do: no Team, no administrator views; publishing on A.
    const navigation = invitee.getByRole('navigation', { name: 'Main' });
    await navigation.getByRole('link', { name: 'Articles' }).waitFor();
    expect(await navigation.getByRole('link', { name: 'Team' }).count()).toBe(0);
    await invitee.goto(`${suite.stack.origin}/articles/${onA.id}`);
    const actions = invitee.getByRole('region', { name: 'Status and actions' });
    await actions.getByRole('button', { name: 'Publish', exact: true }).click();
    await invitee.getByText('Published', { exact: true }).first().waitFor();
    await expect
      .poll(
        async () =>
          (
            await suite.stack.db
              .selectFrom('articles')
              .select('status')
              .where('id', '=', onA.id)
              .executeTakeFirstOrThrow()
          ).status,
      )
      .toBe('published');
    await screenshots(invitee, 'team-editor-published');

    // Site B: the view refuses and shows no control; the API itself answers 403.
    await invitee.goto(`${suite.stack.origin}/articles/${onB.id}`);
    await invitee.getByRole('alert').first().waitFor();
    expect(await invitee.getByRole('button', { name: /Publish|Approve|Delete/ }).count()).toBe(0);
    const refused = await invitee.evaluate(async (id) => {
      const session = await (await fetch('/api/v1/auth/session')).json();
      const answer = await fetch(`/api/v1/article/publish/${id}`, {
        method: 'PUT',
        headers: { 'x-csrf-token': session.csrfToken },
      });
      return { status: answer.status, code: (await answer.json()).code };
    }, onB.id);
    expect(refused).toEqual({ status: 403, code: 'FORBIDDEN' });

    // The administrator's Team view shows the new editor with its grant.
    await admin.reload();
    await admin.getByRole('cell', { name: 'harbour: editor' }).waitFor();
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await screenshots(admin, 'team-members');
    expect(suite.offsite).toEqual([]);
  });
});
