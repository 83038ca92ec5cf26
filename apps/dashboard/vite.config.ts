import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard's build. The dev server's proxy target is set by scripts/dev.ts (from the API's own
// configuration), so this file reads no environment.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/build-dashboard.ts reads the manifest to print the first-load JavaScript of the app.
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // React and its scheduler in a chunk of their own: the same bytes on the first load, but a deploy that
        // changes only the app leaves this ~200 kB cached in returning browsers (and no chunk passes 500 kB).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(?:react|react-dom|scheduler)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
