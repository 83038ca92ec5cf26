import { readFile, writeFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { generatedSchemasPath, generateRequestSchemas } from './support/generate-request-schemas';

// `pnpm api:generate` runs this file with SCHEMAS_REGENERATE=1: it then writes
// the module instead of comparing.
it("the forms' request schemas match the live OpenAPI document (else: pnpm api:generate)", async () => {
  const fresh = await generateRequestSchemas();
  if (process.env.SCHEMAS_REGENERATE === '1') {
    await writeFile(generatedSchemasPath, fresh);
    return;
  }
  const committed = await readFile(generatedSchemasPath, 'utf8').catch(() => '');
  expect(
    committed === fresh,
    'src/lib/form/request-schemas.generated.ts is stale: run pnpm api:generate',
  ).toBe(true);
}, 60_000);
