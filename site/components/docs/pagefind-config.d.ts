// The virtual module Starlight makes of its `pagefind` option (Search.astro passes it to Pagefind's UI).
declare module 'virtual:starlight/pagefind-config' {
  export const pagefindUserConfig: Record<string, unknown>;
}
