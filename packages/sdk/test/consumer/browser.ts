// The SDK in a browser bundle (esbuild, platform browser): it must bundle without Node built-ins.
import { createNewsroomClient, verifyWebhook } from '@newsroom/sdk';

const newsroom = createNewsroomClient({ baseUrl: 'https://content.example.com', apiKey: 'nsk_public' });
export const latest = () => newsroom.page('/api/v1/client/posts', { limit: 5, fields: ['slug', 'title'] });
export { verifyWebhook };
