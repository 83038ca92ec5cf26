import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { generateTypes } from './support/generate-types';

// `pnpm api:generate` runs this file with API_TYPES_REGENERATE=1: it then writes the types instead of comparing.
it('every committed types file matches the live OpenAPI document (else: pnpm api:generate)', async () => {
  const fresh = await generateTypes();
  const stale: string[] = [];
  for (const [output, text] of fresh) {
    if (process.env.API_TYPES_REGENERATE === '1') {
      await mkdir(new URL('.', output.file), { recursive: true });
      await writeFile(output.file, text);
      continue;
    }
    const committed = await readFile(output.file, 'utf8').catch(() => '');
    if (committed !== text) stale.push(fileURLToPath(output.file));
  }
  expect(stale, 'stale generated types: run pnpm api:generate').toEqual([]);
}, 60_000);
