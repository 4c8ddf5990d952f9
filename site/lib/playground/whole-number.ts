/**
 * What a number field holds, read as the scenario takes it: a whole number from `min` to `max`,
 * or nothing when left empty. A type="number" field reads as empty ("") both when it is empty and
 * when what was typed is no number at all ("1e", "-"), so the field's own `badInput` tells the
 * two apart: taken as empty, "1e" in an optional field meant "all" or "none" where the user had
 * typed something else.
 */
export type WholeNumber = { ok: true; value: number | null } | { ok: false };

export function wholeNumberIn(input: HTMLInputElement, min: number, max: number): WholeNumber {
  const text = input.value.trim();
  if (text === '') return input.validity.badInput ? { ok: false } : { ok: true, value: null };
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? { ok: true, value } : { ok: false };
}
