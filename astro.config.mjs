// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import { modulePreload } from './site/integrations/module-preload.ts';

export default defineConfig({
  srcDir: './site',
  // The sitemap and canonical URLs need the site's address: SITE_URL where it is deployed.
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  // Starlight turns on Astro's prefetch-all-links script unless this is set. On every page, it
  // watches the whole body with MutationObservers that query each added node for links and then
  // rescan all of them: the playground adds hundreds of wire-log rows a second, and a CPU profile
  // of a 6,600-step replay had it at 77 ms inside the long paint tasks. The pages are small and
  // static, so a link is fetched when it is clicked.
  prefetch: false,
  integrations: [
    modulePreload(),
    starlight({
      title: 'MCP Cancel Lab',
      description:
        'What happens when an MCP request is cancelled: a real MCP client and server in Web Workers, a simulated wire in virtual time, and every cancellation rule of every revision.',
      // The docs collection is loaded from the top-level `content/docs/` (site/content.config.ts),
      // not Starlight's default `<srcDir>/content/docs/`, so Starlight's Markdown processing
      // (asides, heading anchor links) must be told where the docs are.
      markdown: { processedDirs: ['./content/docs'] },
      // Explicit entries: Starlight's `autogenerate` works out directories from the default
      // collection path, which this site does not use.
      sidebar: [
        {
          label: 'Lessons',
          items: [
            { label: 'Getting started', slug: 'guides/getting-started' },
            { label: 'Paste a real log into a bug report', slug: 'guides/paste-a-log' },
            { label: 'What cancellation is, and is not', slug: 'lessons/what-cancellation-is' },
            { label: 'The rules of notifications/cancelled', slug: 'lessons/notifications-cancelled' },
            { label: 'Revisions and transports', slug: 'lessons/revisions-and-transports' },
            { label: 'The races, R1 to R11', slug: 'lessons/races' },
            { label: 'Timeouts and progress', slug: 'lessons/timeouts-and-progress' },
            { label: 'Case studies', slug: 'lessons/case-studies' },
            { label: 'Writing a client that stops well', slug: 'lessons/writing-a-client' },
            { label: 'Writing a handler that stops well', slug: 'lessons/writing-a-handler' },
            { label: 'Testing cancellation in CI', slug: 'lessons/testing-in-ci' },
            { label: "Check your own server's cancellation", slug: 'guides/check-your-server' },
          ],
        },
        {
          label: 'Reference',
          items: [
            { label: 'Rule reference', slug: 'reference/rules' },
            { label: 'Open points of the spec', slug: 'reference/open-points' },
          ],
        },
        { label: 'Playground', link: '/playground/' },
      ],
      // Light / dark / auto theme picker and Pagefind search are Starlight's defaults; said here
      // so that nobody turns them off by accident.
      pagefind: true,
      routeMiddleware: './site/route-data.ts',
      components: {
        // Adds a "Playground" link to the header (and the mobile menu).
        SocialIcons: './site/components/starlight/HeaderLinks.astro',
        // Wide tables take the focus while they scroll sideways, so a keyboard can scroll them.
        MarkdownContent: './site/components/starlight/MarkdownContent.astro',
        // Loads Pagefind's search UI when the search dialog first opens, not with every page.
        Search: './site/components/docs/Search.astro',
      },
      customCss: ['./site/styles/docs.css'],
    }),
  ],
  // The workers import the SDK as ES modules; Vite bundles them per worker.
  vite: {
    worker: { format: 'es' },
    // The dev server pre-bundles what the pages import, but a worker's imports are found only
    // when the worker starts, so it would re-bundle them then and reload the page on the first
    // playground visit. The worker entry points are crawled up front with the pages instead
    // (Astro adds its own entries to these), so whatever a worker comes to import is covered.
    optimizeDeps: { entries: ['workers/*.worker.ts'] },
    // A dev server with a cache of its own (the dev-server test starts one on an empty cache).
    cacheDir: process.env.CANCEL_LAB_VITE_CACHE,
  },
  server: { host: 'localhost', port: 4321 },
});
