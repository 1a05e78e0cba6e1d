import { RE2 } from 're2-wasm';

/**
 * Patterns written by operators (an event's `attendeeIdRegex` and `attendeeIdVipRegex`) run here
 * and only here, on RE2 (re2-wasm): matching takes time linear in the input whatever the pattern,
 * so `^(A+)+B$` against a long id cannot stall the server. JavaScript's backtracking engine never
 * runs them. Features RE2 lacks (back-references, look-around) make a pattern unusable: refused at
 * save (`ownerPatternUsable`) and, should an old one be stored, matching nothing.
 */

/** Compiled patterns (re2-wasm has no way to free one, so they are kept and reused). */
const compiled = new Map<string, RE2 | null>();
const MAX_COMPILED = 500;

const compile = (pattern: string): RE2 | null => {
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached;
  let re: RE2 | null;
  try {
    // re2-wasm runs in Unicode mode only ('u').
    re = new RE2(pattern, 'u');
  } catch {
    re = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(pattern, re);
  return re;
};

/** Whether RE2 can run the pattern (the save-time check). */
export const ownerPatternUsable = (pattern: string): boolean => compile(pattern) !== null;

/** Whether `value` matches the operator's pattern; a pattern RE2 cannot run matches nothing. */
export const ownerPatternMatches = (pattern: string, value: string): boolean =>
  compile(pattern)?.test(value) ?? false;
