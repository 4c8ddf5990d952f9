import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { docsSchema } from '@astrojs/starlight/schema';

/**
 * The docs live in the repository's top-level `content/docs/` (the design card: "content/ —
 * docs, lessons, the scenario library"), not in Starlight's default `site/content/docs/`.
 * So this is Starlight's `docsLoader()` with the base moved: the same extensions, and files
 * whose name starts with `_` are left out (partials). The entry id is the path without the
 * extension (`reference/rules`), which is the page's URL.
 *
 * Starlight is told about the folder in astro.config.mjs (`markdown.processedDirs`).
 */
export const collections = {
  docs: defineCollection({
    loader: glob({ base: './content/docs', pattern: '**/[^_]*.{markdown,mdown,mkdn,mkd,mdwn,md,mdx}' }),
    schema: docsSchema(),
  }),
};
