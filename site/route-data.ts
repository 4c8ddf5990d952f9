/**
 * Starlight route middleware. The rule reference's headings are rendered by a component from
 * the catalog, not written in Markdown, so Starlight's table of contents does not see them:
 * here they are added to the page's table of contents (sections, then rule ids).
 */
import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { ruleSections } from '../src/report/index.ts';

export const RULE_REFERENCE_ID = 'reference/rules';

export const onRequest = defineRouteMiddleware((context) => {
  const route = context.locals.starlightRoute;
  if (route.id !== RULE_REFERENCE_ID || !route.toc) return;
  for (const section of ruleSections()) {
    route.toc.items.push({
      depth: 2,
      slug: section.anchor,
      text: `${section.section} ${section.title}`,
      children: section.rules.map((view) => ({ depth: 3, slug: view.anchor, text: view.rule.id, children: [] })),
    });
  }
});
