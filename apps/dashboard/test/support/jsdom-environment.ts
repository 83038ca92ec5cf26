import { builtinEnvironments, type Environment } from 'vitest/runtime';

// jsdom's globals (window, document) for the components, while modules are transformed as for Node
// ("ssr"): the component tests run the real API in the same process, and its code must see Node's
// import.meta.url (the password hasher's worker file), not a dev-server URL.
export default {
  ...builtinEnvironments.jsdom,
  name: 'jsdom-node-modules',
  viteEnvironment: 'ssr',
} satisfies Environment;
