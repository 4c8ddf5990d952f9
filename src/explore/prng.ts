/**
 * The random search's randomness: a small seeded PRNG (mulberry32), so schedule n of seed s is
 * the same schedule on every machine, in every shard, whichever worker pair runs it.
 */

/** A 32-bit hash of a seed and a schedule number (FNV-1a over the seed's text, then the number). */
function hash(seed: string, n: number): number {
  let h = 0x811c9dc5;
  for (const c of `${seed}#${n}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** Uniform integers in [0, below), from the stream of schedule `n` of `seed`. */
export function randomInts(seed: string, n: number): (below: number) => number {
  let state = hash(seed, n);
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    return Math.floor(unit * below);
  };
}
