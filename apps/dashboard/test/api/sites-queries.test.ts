import { describe, expect, it } from 'vitest';
import {
  articleCountOf,
  siteChoicesQuery,
  siteKeyListQuery,
  siteKeys,
  siteListQuery,
  useCreateSite,
  useCreateSiteKey,
  useDeleteSite,
  useEditSite,
  useRevokeSiteKey,
} from '../../src/api/sites';
import { setUpDashboardApi } from '../support/dashboard-test-app';
import { adminHarnessPerTest } from '../support/query-harness';

// The sites query module against the real API: one key family for the site list wherever it is read,
// and each mutation refreshing exactly what it changed.

const server = await setUpDashboardApi();
const harness = adminHarnessPerTest(server);

let counter = 0;
const slug = () => `site-${++counter}-${Math.random().toString(36).slice(2, 6)}`;

describe('site keys', () => {
  it('nest every list and choice under the sites key; API keys are their own family', () => {
    expect(siteKeys.list()).toEqual(['sites', 'list']);
    expect(siteListQuery.queryKey).toEqual(siteKeys.list());
    // The choices are the same list (one cache entry), kept a minute.
    expect(siteChoicesQuery.queryKey).toEqual(siteListQuery.queryKey);
    expect(siteChoicesQuery.staleTime).toBe(60_000);
    expect(siteKeyListQuery('s1').queryKey).toEqual(['site-keys', 's1']);
    expect(siteKeys.keys('s1')[0]).not.toBe(siteKeys.all[0]);
  });
});

describe('site queries and mutations', () => {
  it('creates a site, which the list then carries with its article count; the list is refreshed', async () => {
    harness().prime(siteKeys.list(), siteKeys.keys('other'));
    const create = harness().hook(() => useCreateSite());
    const site = await harness().run(create, { name: 'Harbour news', slug: slug() });
    expect(site).toMatchObject({ name: 'Harbour news', domain: null });
    expect(harness().invalidated(siteKeys.list(), siteKeys.keys('other'))).toEqual([siteKeys.list()]);

    const list = await harness().queryClient.fetchQuery(siteListQuery);
    const listed = list.data.find((item) => item.id === site.id);
    const none = { published: 0, total: 0 };
    expect(listed).toMatchObject({ slug: site.slug, articleCount: none });
    expect(listed && articleCountOf(listed)).toEqual(none);
    // A create answer carries no count: the views then say less.
    expect(articleCountOf(site)).toBeNull();
  });

  it('edits a site and refreshes the list', async () => {
    const site = await harness().run(
      harness().hook(() => useCreateSite()),
      { name: 'Old name', slug: slug() },
    );
    harness().prime(siteKeys.list());
    const edited = await harness().run(
      harness().hook(() => useEditSite(site.id)),
      { name: 'New name' },
    );
    expect(edited).toMatchObject({ id: site.id, name: 'New name' });
    expect(harness().invalidated(siteKeys.list())).toEqual([siteKeys.list()]);
  });

  it('deletes a site and refreshes the list', async () => {
    const site = await harness().run(
      harness().hook(() => useCreateSite()),
      { name: 'Gone soon', slug: slug() },
    );
    harness().prime(siteKeys.list());
    await harness().run(
      harness().hook(() => useDeleteSite()),
      site.id,
    );
    expect(harness().invalidated(siteKeys.list())).toEqual([siteKeys.list()]);
    const list = await harness().queryClient.fetchQuery({ ...siteListQuery, staleTime: 0 });
    expect(list.data.map((item) => item.id)).not.toContain(site.id);
  });

  it("creates a key shown once, lists it without its secret, and revokes it; only that site's keys refresh", async () => {
    const site = await harness().run(
      harness().hook(() => useCreateSite()),
      { name: 'Keyed', slug: slug() },
    );
    harness().prime(siteKeys.list(), siteKeys.keys(site.id), siteKeys.keys('other'));
    const created = await harness().run(
      harness().hook(() => useCreateSiteKey(site.id)),
      { name: 'Production', kind: 'secret' },
    );
    expect(created.key).toMatch(/^nsk_/);
    expect(harness().invalidated(siteKeys.list(), siteKeys.keys(site.id), siteKeys.keys('other'))).toEqual([
      siteKeys.keys(site.id),
    ]);

    const keys = await harness().queryClient.fetchQuery(siteKeyListQuery(site.id));
    expect(keys.data).toHaveLength(1);
    expect(keys.data[0]).toMatchObject({ id: created.id, name: 'Production', revokedAt: null });
    expect(JSON.stringify(keys)).not.toContain(created.key);

    harness().prime(siteKeys.keys(site.id));
    await harness().run(
      harness().hook(() => useRevokeSiteKey(site.id)),
      created.id,
    );
    expect(harness().invalidated(siteKeys.keys(site.id))).toEqual([siteKeys.keys(site.id)]);
    const after = await harness().queryClient.fetchQuery({ ...siteKeyListQuery(site.id), staleTime: 0 });
    expect(after.data[0]?.revokedAt).not.toBeNull();
  });

  it('refreshes nothing when the API refuses: the form shows the error itself (silent)', async () => {
    harness().prime(siteKeys.list());
    const create = harness().hook(() => useCreateSite());
    const refused = await harness()
      .run(create, { name: 'Bad', slug: 'Not A Slug' })
      .catch((error) => error);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(harness().invalidated(siteKeys.list())).toEqual([]);
    expect(harness().queryClient.getMutationCache().getAll()[0]?.meta).toEqual({ silent: true });
  });
});
