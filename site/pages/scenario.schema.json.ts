// The scenario format's JSON Schema, generated at build time from the zod schema that validates
// scenarios everywhere else (links, files, the editor, the headless runner).
import { scenarioJsonSchema } from '../../src/scenario/index.ts';

export function GET(): Response {
  return new Response(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`, { headers: { 'content-type': 'application/schema+json' } });
}
