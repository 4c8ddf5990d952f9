// Comlink ships this adapter's types as node-adapter.d.ts; the .mjs path we import needs its own declaration.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
}
