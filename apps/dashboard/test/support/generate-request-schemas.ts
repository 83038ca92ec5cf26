import { createTestApp } from '../../../api/test/support/test-app';

export const generatedSchemasPath = new URL(
  '../../src/lib/form/request-schemas.generated.ts',
  import.meta.url,
);

/** The request bodies the dashboard's forms send, by a name the forms use: method and path in the document. */
export const formOperations = {
  signIn: ['post', '/api/v1/auth/session'],
  changePassword: ['put', '/api/v1/auth/password'],
  createPublisher: ['post', '/api/v1/publisher'],
  updatePublisher: ['put', '/api/v1/publisher/{id}'],
  resetPassword: ['put', '/api/v1/publisher/{id}/password'],
  saveFeed: ['put', '/api/v1/publisher/me/feed'],
  createSite: ['post', '/api/v1/site'],
  editSite: ['put', '/api/v1/site/{id}'],
  createSiteKey: ['post', '/api/v1/site/{id}/keys'],
  createWebhook: ['post', '/api/v1/webhooks'],
  editWebhook: ['put', '/api/v1/webhooks/{id}'],
  secondFactor: ['post', '/api/v1/auth/session/2fa'],
  totpCode: ['post', '/api/v1/account/2fa/confirm'],
  disableTwoFactor: ['post', '/api/v1/account/2fa/disable'],
  updateProfile: ['patch', '/api/v1/account/profile'],
  forgotPassword: ['post', '/api/v1/auth/password-reset'],
  setPasswordByLink: ['post', '/api/v1/auth/password-reset/{token}'],
  acceptInvitation: ['post', '/api/v1/auth/invitation/{token}'],
  inviteUser: ['post', '/api/v1/users/invitations'],
  updateUserAccess: ['put', '/api/v1/users/{id}'],
} as const;

const header = `// Generated from the API's OpenAPI document (the request bodies of the dashboard's forms): do not edit.
// Regenerate with \`pnpm api:generate\`; test/request-schemas.test.ts fails while
// it is stale. Data only: the forms validate against it in the browser (src/lib/form/validate.ts).
`;

type Document = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
};

/** Only what validation reads: descriptions, examples and titles are left out (they would ship for nothing). */
const dropped = new Set(['description', 'examples', 'example', 'title', 'default']);
const strip = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, inner) =>
    dropped.has(key) && typeof inner !== 'object' ? undefined : inner,
  );

/** The module's text, from the live document of the real app (built on a test database). */
export async function generateRequestSchemas(): Promise<string> {
  const { app, close } = await createTestApp();
  try {
    const response = await app.inject({ method: 'GET', url: '/docs/json' });
    if (response.statusCode !== 200) throw new Error(`/docs/json answered ${response.statusCode}`);
    const document = response.json() as Document;
    const schemas: Record<string, unknown> = {};
    for (const [name, [method, path]] of Object.entries(formOperations)) {
      const schema = document.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`no JSON request body for ${method.toUpperCase()} ${path}`);
      schemas[name] = strip(schema);
    }
    // One line a schema: data to read by name, not code to review line by line.
    const entries = Object.entries(schemas).map(([name, schema]) => `  ${name}: ${JSON.stringify(schema)},`);
    return `${header}\nexport const requestSchemas = {\n${entries.join('\n')}\n} as const;\n\nexport type RequestSchemaName = keyof typeof requestSchemas;\n`;
  } finally {
    await close();
  }
}
