import { grouped } from '../trace/index.ts';

/** "1 step", "3 steps", "2,003 frames": a count and its noun, as every view and the command line say it. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}
