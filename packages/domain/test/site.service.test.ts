import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../src/errors';
import { listSites } from '../src/sites/site.repository';
import { createSite, deleteSite, editSite, getSite } from '../src/sites/site.service';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('site service', () => {
  it('creates, reads, edits, lists and deletes sites', async () => {
    const site = await createSite(db, { slug: 'metro', name: 'Metro', domain: null });
    expect(await getSite(db, site.id)).toEqual(site);
    const edited = await editSite(db, site.id, { domain: 'metro.example.com' });
    expect(edited).toMatchObject({ slug: 'metro', domain: 'metro.example.com' });
    expect(edited.updatedAt.getTime()).toBeGreaterThanOrEqual(site.updatedAt.getTime());
    await createSite(db, { slug: 'arts', name: 'Arts', domain: null });
    expect((await listSites(db)).map((s) => s.slug)).toEqual(['arts', 'metro']);
    await deleteSite(db, site.id);
    await expect(getSite(db, site.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a taken slug with SITE_SLUG_TAKEN, on create and on edit', async () => {
    await createSite(db, { slug: 'taken', name: 'Taken', domain: null });
    const other = await createSite(db, { slug: 'other', name: 'Other', domain: null });
    await expect(createSite(db, { slug: 'taken', name: 'Again', domain: null })).rejects.toMatchObject({
      code: 'SITE_SLUG_TAKEN',
    });
    await expect(editSite(db, other.id, { slug: 'taken' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('reports unknown ids as SITE_NOT_FOUND', async () => {
    await expect(editSite(db, unknownId, { name: 'x' })).rejects.toMatchObject({ code: 'SITE_NOT_FOUND' });
    await expect(deleteSite(db, unknownId)).rejects.toMatchObject({ code: 'SITE_NOT_FOUND' });
  });
});
